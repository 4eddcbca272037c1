package org.ziggurat.events.webhooks;

import io.quarkus.smallrye.openapi.OpenApiFilter;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;

/**
 * The webhooks' operations are declared once ({@link WebhookEndpoints}) for two places, with the
 * place's path parameters as fields: here the document gets what that leaves out. Every
 * operation declares {@code namespace} (and {@code repository}) as its path names them, and the
 * repository's and the audit stream's operation ids say so ({@code createWebhook} there is
 * {@code createRepositoryWebhook}, {@code createAuditWebhook}), so that every id stays unique.
 */
@OpenApiFilter(OpenApiFilter.RunStage.BUILD)
public class WebhookPathsDocument implements OASFilter {

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            return;
        }
        openAPI.getPaths().getPathItems().forEach((path, item) -> {
            boolean namespaces = path.startsWith("/{namespace}/webhooks");
            boolean repositories = path.startsWith("/{namespace}/repositories/{repository}/webhooks");
            if (path.startsWith("/audit/webhooks")) {
                item.getOperations().values().forEach(operation -> {
                    String id = operation.getOperationId();
                    if (id != null && id.contains("Webhook") && !id.contains("AuditWebhook")) {
                        operation.setOperationId(id.replaceFirst("Webhook", "AuditWebhook"));
                    }
                });
                return;
            }
            if (!namespaces && !repositories) {
                return;
            }
            item.getOperations().values().forEach(operation -> {
                declare(operation, "namespace", "A person's or an organization's name.");
                if (repositories) {
                    declare(operation, "repository", "The repository's name.");
                    String id = operation.getOperationId();
                    if (id != null && id.contains("Webhook") && !id.contains("RepositoryWebhook")) {
                        operation.setOperationId(id.replaceFirst("Webhook", "RepositoryWebhook"));
                    }
                }
            });
        });
    }

    private static void declare(Operation operation, String name, String description) {
        if (operation.getParameters() != null && operation.getParameters().stream()
                .anyMatch(p -> name.equals(p.getName()) && p.getIn() == Parameter.In.PATH)) {
            return;
        }
        operation.addParameter(OASFactory.createParameter().name(name).in(Parameter.In.PATH).required(true)
                .description(description).schema(OASFactory.createSchema().addType(Schema.SchemaType.STRING)));
    }
}
