package org.ziggurat.events.webhooks;

import jakarta.ws.rs.Path;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** A namespace's webhooks: the events of every repository in it. */
@Tag(name = "Webhooks", description = "Data events POSTed to other systems as they are recorded: signed (Standard Webhooks), "
        + "CloudEvents 1.0, retried, logged.")
@Path("/{namespace}/webhooks")
public class NamespaceWebhooksResource extends WebhookEndpoints {

    @Override
    WebhookService.Place place() {
        return new WebhookService.Place(namespace, null);
    }
}
