package org.ziggurat.events.webhooks;

import io.quarkus.smallrye.openapi.OpenApiFilter;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;

/**
 * The repository's webhooks are the namespace's operations on another path: their operation ids
 * say so ({@code createWebhook} there is {@code createRepositoryWebhook} here), so that every id
 * stays unique in the document.
 */
@OpenApiFilter(OpenApiFilter.RunStage.BUILD)
public class WebhookOperationIds implements OASFilter {

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            return;
        }
        openAPI.getPaths().getPathItems().forEach((path, item) -> {
            if (path.contains("/repositories/{repository}/webhooks")) {
                item.getOperations().values().forEach(operation -> {
                    String id = operation.getOperationId();
                    if (id != null && id.contains("Webhook") && !id.contains("RepositoryWebhook")) {
                        operation.setOperationId(id.replaceFirst("Webhook", "RepositoryWebhook"));
                    }
                });
            }
        });
    }
}
