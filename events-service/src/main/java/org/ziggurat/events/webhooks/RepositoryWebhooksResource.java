package org.ziggurat.events.webhooks;

import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.events.data.RepositoryNames;

/** One repository's webhooks. */
@Tag(name = "Webhooks")
@Path("/{namespace}/repositories/{repository}/webhooks")
public class RepositoryWebhooksResource extends WebhookEndpoints {

    @PathParam("repository")
    String repository;

    @Override
    WebhookService.Place place() {
        return new WebhookService.Place(namespace, RepositoryNames.checked(repository));
    }
}
