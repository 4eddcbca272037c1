package org.ziggurat.events.webhooks;

import jakarta.ws.rs.Path;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The audit stream's webhooks: the platform's operators subscribe a URL (a SIEM's collector, say)
 * to categories of security-relevant changes, sent as data events are.
 */
@Tag(name = "Audit stream")
@Path("/audit/webhooks")
public class AuditWebhooksResource extends WebhookEndpoints {

    @Override
    WebhookService.Place place() {
        return WebhookService.Place.AUDIT;
    }
}
