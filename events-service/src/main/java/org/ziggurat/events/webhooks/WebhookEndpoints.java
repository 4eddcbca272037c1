package org.ziggurat.events.webhooks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.ziggurat.platform.input.FieldChecks;
import org.ziggurat.platform.paging.PageRequest;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.rest.http.PublicUrls;
import org.ziggurat.platform.rest.openapi.ApiContract;
import org.ziggurat.platform.rest.openapi.ApiErrors;
import org.ziggurat.platform.rest.paging.PageLinks;
import org.ziggurat.platform.token.Callers;
import org.ziggurat.platform.token.ScopeNames;

import java.net.URI;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * The webhooks API, the same for a namespace's webhooks ({@link NamespaceWebhooksResource}) and a
 * repository's ({@link RepositoryWebhooksResource}): HTTP mapped to {@link WebhookService}.
 */
@Produces(MediaType.APPLICATION_JSON)
public abstract class WebhookEndpoints {

    static final List<String> DELIVERY_STATES = List.of("pending", "delivered", "failed");

    /** The namespace's name as the path has it (none for the audit stream's webhooks). */
    @PathParam("namespace")
    String namespace;

    @Inject
    Callers callers;

    @Inject
    WebhookService service;

    @Inject
    ObjectMapper mapper;

    /** Where these webhooks are. */
    abstract WebhookService.Place place();

    @Operation(operationId = "createWebhook", summary = "Create a webhook",
            description = "By an admin of the namespace. Events of the kinds named are POSTed to the target URL as CloudEvents "
                    + "(structured JSON), signed per Standard Webhooks with the secret, which this answer alone shows.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = WebhookViews.WebhookInput.class)))
    @APIResponse(responseCode = "201", description = "The webhook, with its secret.",
            headers = @Header(name = "Location", description = "The webhook's URL.", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = WebhookViews.Webhook.class)))
    @APIResponse(responseCode = "409", ref = ApiErrors.CONFLICT)
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> create(String body, @Context UriInfo uri) {
        JsonNode json = json(body);
        return callers.current().chain(caller -> service.create(place(), json, caller, PublicUrls.of(uri)))
                .map(view -> Response.created(URI.create(view.url())).entity(view).build());
    }

    @Operation(operationId = "listWebhooks", summary = "List webhooks", description = "By an admin of the namespace; without secrets.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @APIResponse(responseCode = "200", description = "The webhooks.", content = @Content(mediaType = "application/json",
            schema = @Schema(type = SchemaType.ARRAY, implementation = WebhookViews.Webhook.class)))
    @GET
    public Uni<List<WebhookViews.Webhook>> list(@Context UriInfo uri) {
        return callers.current().chain(caller -> service.list(place(), caller, PublicUrls.of(uri)));
    }

    @Operation(operationId = "getWebhook", summary = "Get a webhook", description = "Without its secret.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @APIResponse(responseCode = "200", description = "The webhook.", content = @Content(mediaType = "application/json",
            schema = @Schema(implementation = WebhookViews.Webhook.class)))
    @GET
    @Path("/{id}")
    public Uni<WebhookViews.Webhook> get(@PathParam("id") String id, @Context UriInfo uri) {
        long webhook = id(id, "webhook");
        return callers.current().chain(caller -> service.get(place(), webhook, caller, PublicUrls.of(uri)));
    }

    @Operation(operationId = "updateWebhook", summary = "Change a webhook",
            description = "What the body names changes. active false pauses it (nothing is queued meanwhile); true resumes "
                    + "it, also after the platform disabled it. Whoever makes it active or changes its target answers for it "
                    + "from then on: it stops when they are no longer an admin of the namespace (of the audit stream's: an operator).")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = WebhookViews.WebhookInput.class)))
    @APIResponse(responseCode = "200", description = "The webhook.", content = @Content(mediaType = "application/json",
            schema = @Schema(implementation = WebhookViews.Webhook.class)))
    @PATCH
    @Path("/{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<WebhookViews.Webhook> update(@PathParam("id") String id, String body, @Context UriInfo uri) {
        long webhook = id(id, "webhook");
        JsonNode json = json(body);
        return callers.current().chain(caller -> service.update(place(), webhook, json, caller, PublicUrls.of(uri)));
    }

    @Operation(operationId = "deleteWebhook", summary = "Delete a webhook", description = "With its queued deliveries and its log.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @APIResponse(responseCode = "204", description = "Deleted.")
    @DELETE
    @Path("/{id}")
    public Uni<Response> delete(@PathParam("id") String id) {
        long webhook = id(id, "webhook");
        return callers.current().chain(caller -> service.delete(place(), webhook, caller)).map(done -> Response.noContent().build());
    }

    @Operation(operationId = "rotateWebhookSecret", summary = "Rotate a webhook's secret",
            description = "A new secret, shown in this answer alone. The previous one keeps signing beside it (a second "
                    + "signature in webhook-signature) until previous_secret_expires_at, so receivers can switch without losing "
                    + "a delivery.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @APIResponse(responseCode = "200", description = "The webhook, with its new secret.", content = @Content(
            mediaType = "application/json", schema = @Schema(implementation = WebhookViews.Webhook.class)))
    @POST
    @Path("/{id}/secret")
    public Uni<WebhookViews.Webhook> rotateSecret(@PathParam("id") String id, @Context UriInfo uri) {
        long webhook = id(id, "webhook");
        return callers.current().chain(caller -> service.rotateSecret(place(), webhook, caller, PublicUrls.of(uri)));
    }

    @Operation(operationId = "listWebhookDeliveryRepository", summary = "List a webhook's deliveries",
            description = "Newest first, each with its last attempt (status, time, the answer's first bytes).")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @Parameter(name = "state", schema = @Schema(enumeration = {"pending", "delivered", "failed"}))
    @APIResponse(responseCode = "200", description = "A page of deliveries.", content = @Content(mediaType = "application/json",
            schema = @Schema(type = SchemaType.ARRAY, implementation = WebhookViews.Delivery.class)))
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @GET
    @Path("/{id}/deliveries")
    public Uni<Response> deliveries(@PathParam("id") String id, @QueryParam("state") String state, @QueryParam("page") String page,
            @QueryParam("per_page") String perPage, @Context UriInfo uri) {
        long webhook = id(id, "webhook");
        PageRequest request = PageRequest.of(page, perPage);
        FieldChecks.oneOf("state", state, DELIVERY_STATES);
        String webhookUrl = webhookUrl(uri, webhook);
        return callers.current().chain(caller -> service.log(place(), webhook, state, request, caller))
                .map(rows -> PageLinks.withoutTotal(Response.ok(rows.stream().limit(request.limit())
                        .map(d -> WebhookViews.delivery(d, webhookUrl)).toList()), uri, request, rows.size() > request.limit()).build());
    }

    @Operation(operationId = "getWebhookDelivery", summary = "Get a webhook delivery", description = "With every attempt.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @APIResponse(responseCode = "200", description = "The delivery.", content = @Content(mediaType = "application/json",
            schema = @Schema(implementation = WebhookViews.Delivery.class)))
    @GET
    @Path("/{id}/deliveries/{delivery}")
    public Uni<WebhookViews.Delivery> delivery(@PathParam("id") String id, @PathParam("delivery") String delivery,
            @Context UriInfo uri) {
        long webhook = id(id, "webhook");
        long deliveryId = id(delivery, "delivery");
        return callers.current().chain(caller -> service.delivery(place(), webhook, deliveryId, caller))
                .map(d -> WebhookViews.delivery(d, webhookUrl(uri, webhook)));
    }

    @Operation(operationId = "redeliverWebhookDelivery", summary = "Redeliver one delivery",
            description = "Queued again with the same webhook-id, its retry period started again. 409 while it is still queued "
                    + "or under way.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @APIResponse(responseCode = "202", description = "Queued.")
    @APIResponse(responseCode = "409", ref = ApiErrors.CONFLICT)
    @POST
    @Path("/{id}/deliveries/{delivery}/redeliver")
    public Uni<Response> redeliver(@PathParam("id") String id, @PathParam("delivery") String delivery) {
        long webhook = id(id, "webhook");
        long deliveryId = id(delivery, "delivery");
        return callers.current().chain(caller -> service.redeliver(place(), webhook, deliveryId, caller))
                .map(done -> Response.accepted().build());
    }

    @Operation(operationId = "redeliverFailedWebhookDeliveryRepository", summary = "Redeliver the failed deliveries since a time",
            description = "Every failed delivery of the webhook queued since the instant, queued again in order.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = WebhookViews.RedeliveryInput.class)))
    @APIResponse(responseCode = "202", description = "How many were queued again.", content = @Content(
            mediaType = "application/json", schema = @Schema(implementation = WebhookViews.Redeliveries.class)))
    @POST
    @Path("/{id}/redeliveries")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> redeliverFailed(@PathParam("id") String id, String body) {
        long webhook = id(id, "webhook");
        JsonNode json = FieldChecks.object(json(body));
        FieldChecks errors = new FieldChecks();
        String since = errors.string(json.get("since"), "since", 64, true);
        errors.throwIfFailed("The redelivery is not valid.");
        OffsetDateTime after = FieldChecks.timestamp("since", since);
        return callers.current().chain(caller -> service.redeliverFailed(place(), webhook, after, caller))
                .map(n -> Response.accepted(new WebhookViews.Redeliveries(n)).build());
    }

    private String webhookUrl(UriInfo uri, long webhook) {
        return PublicUrls.of(uri).api(place().path() + "/webhooks/" + webhook);
    }

    private JsonNode json(String body) {
        if (body == null || body.isBlank()) {
            throw ProblemException.badRequest("A JSON body is required.");
        }
        try {
            return mapper.readTree(body);
        } catch (JsonProcessingException e) {
            throw ProblemException.badRequest("The request body is not valid JSON.");
        }
    }

    private static long id(String id, String what) {
        if (id == null || !id.matches("[1-9][0-9]{0,17}")) {
            throw ProblemException.notFound("No such " + what + ".");
        }
        return Long.parseLong(id);
    }
}
