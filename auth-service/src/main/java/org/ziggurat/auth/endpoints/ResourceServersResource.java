package org.ziggurat.auth.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirementsSet;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.Issuer;
import org.ziggurat.auth.dpop.DpopProofs;
import org.ziggurat.auth.tokens.ResourceServerAdministration;
import org.ziggurat.platform.rest.http.PublicUrls;
import org.ziggurat.platform.rest.openapi.ApiContract;
import org.ziggurat.platform.rest.openapi.ApiErrors;
import org.ziggurat.platform.token.ScopeNames;

import java.net.URI;
import java.util.List;

/**
 * The resource servers (RFC 8707) tokens may be meant for, for the platform's operators: the
 * deployment's configured ones (read only here) and the ones registered through this API, each
 * with its own credential for introspection; and, for anyone, a resource server's protected
 * resource metadata (RFC 9728) for it to publish.
 */
@Tag(name = "Resource servers", description = "Services of their own that take the platform's access tokens (RFC 8707 "
        + "resources), for the platform's operators.")
@Path("/resource-servers")
@Produces(MediaType.APPLICATION_JSON)
public class ResourceServersResource {

    @Schema(name = "ResourceServerInput", description = "A resource server. On a change, a field left out keeps its value.")
    record ResourceServerInput(
            @Schema(required = true, maxLength = 2000, description = "Its resource indicator: an absolute URI without a "
                    + "fragment, which tokens name in aud. Set once.") String identifier,
            @Schema(required = true, maxLength = 100) String name,
            @Schema(required = true, description = "The platform scopes it understands: a token for it carries no others.")
            List<String> scopes,
            @Schema(enumeration = {"jwt", "opaque"}, description = "The access tokens it takes, whatever the client chose: "
                    + "jwt (RFC 9068, checked against the JWKS; the default) or opaque (introspected).") String accessTokenFormat,
            @Schema(nullable = true, minimum = "60", description = "Seconds its tokens live, shorter than the platform's "
                    + "access-token lifetime; null: the platform's.") Integer accessTokenLifetime,
            @Schema(nullable = true, maxLength = 64, description = "The client_id of the application that may exchange a "
                    + "person's token meant for it (RFC 8693), when that application allows exchange; null: none.")
            String exchangeClientId) {
    }

    @io.quarkus.runtime.annotations.RegisterForReflection
    @Schema(name = "ResourceServerMetadata", description = "Protected resource metadata (RFC 9728 section 2).")
    public record Metadata(
            @Schema(required = true, description = "The resource's identifier.") String resource,
            String resourceName,
            @Schema(required = true, description = "The issuer of its tokens.") List<String> authorizationServers,
            List<String> scopesSupported,
            List<String> bearerMethodsSupported,
            List<String> dpopSigningAlgValuesSupported) {
    }

    private final ResourceServerAdministration administration;
    private final AuthConfig config;

    ResourceServersResource(ResourceServerAdministration administration, AuthConfig config) {
        this.administration = administration;
        this.config = config;
    }

    @Operation(operationId = "listResourceServers", summary = "The resource servers (operators)",
    description = "Every resource server: source configuration (the deployment's, changed there; its id is its name "
    + "there) or api. Secrets are never shown.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @APIResponse(responseCode = "200", description = "The resource servers.", content = @Content(mediaType = "application/json",
    schema = @Schema(type = SchemaType.ARRAY, implementation = ResourceServerAdministration.View.class)))
    @APIResponse(responseCode = "401", ref = ApiErrors.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiErrors.FORBIDDEN)
    @GET
    public Uni<List<ResourceServerAdministration.View>> list() {
        return administration.list();
    }

    @Operation(operationId = "createResourceServer", summary = "Register a resource server (operators)",
    description = "Tokens may be asked for it (resource) at once, on every replica within seconds. Its credential "
    + "(client_id, client_secret: shown in this answer only) introspects the tokens meant for it and nothing else; "
    + "the token endpoint refuses it.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @RequestBody(required = true, content = @Content(mediaType = "application/json",
    schema = @Schema(implementation = ResourceServerInput.class)))
    @APIResponse(responseCode = "201", description = "Registered, with its secret.", headers = @Header(name = "Location",
    description = "Its URL.", schema = @Schema(type = SchemaType.STRING)), content = @Content(mediaType = "application/json",
    schema = @Schema(implementation = ResourceServerAdministration.View.class)))
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiErrors.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiErrors.FORBIDDEN)
    @APIResponse(responseCode = "409", ref = ApiErrors.CONFLICT)
    @APIResponse(responseCode = "422", ref = ApiErrors.UNPROCESSABLE)
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> create(JsonNode body, @Context UriInfo uri) {
        PublicUrls urls = PublicUrls.of(uri);
        return administration.create(body).map(view -> Response.created(URI.create(urls.api("/resource-servers/" + view.id())))
                .entity(view).header("Cache-Control", "no-store").build());
    }

    @Operation(operationId = "getResourceServer", summary = "Get a resource server (operators)")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @APIResponse(responseCode = "200", description = "The resource server, without secret.", content = @Content(
    mediaType = "application/json", schema = @Schema(implementation = ResourceServerAdministration.View.class)))
    @APIResponse(responseCode = "401", ref = ApiErrors.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiErrors.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiErrors.NOT_FOUND)
    @GET
    @Path("/{id}")
    public Uni<ResourceServerAdministration.View> get(@PathParam("id") String id) {
        return administration.get(id);
    }

    @Operation(operationId = "changeResourceServer", summary = "Change a resource server (operators)",
    description = "Its name, scopes, token format, lifetime or exchanging client; not its identifier. Tokens issued "
    + "before keep what they were issued with.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @RequestBody(required = true, content = @Content(mediaType = "application/json",
    schema = @Schema(implementation = ResourceServerInput.class)))
    @APIResponse(responseCode = "200", description = "Changed.", content = @Content(mediaType = "application/json",
    schema = @Schema(implementation = ResourceServerAdministration.View.class)))
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiErrors.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiErrors.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiErrors.NOT_FOUND)
    @APIResponse(responseCode = "409", ref = ApiErrors.CONFLICT)
    @APIResponse(responseCode = "422", ref = ApiErrors.UNPROCESSABLE)
    @PATCH
    @Path("/{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<ResourceServerAdministration.View> change(@PathParam("id") String id, JsonNode body) {
        return administration.change(id, body);
    }

    @Operation(operationId = "deleteResourceServer", summary = "Remove a resource server (operators)",
    description = "No token may be asked for it any more and its credential stops working; tokens issued for it live "
    + "until they expire.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @APIResponse(responseCode = "204", description = "Removed.")
    @APIResponse(responseCode = "401", ref = ApiErrors.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiErrors.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiErrors.NOT_FOUND)
    @APIResponse(responseCode = "409", ref = ApiErrors.CONFLICT)
    @DELETE
    @Path("/{id}")
    public Uni<Response> delete(@PathParam("id") String id) {
        return administration.delete(id).map(done -> Response.noContent().build());
    }

    @Operation(operationId = "newResourceServerSecret", summary = "A new credential for a resource server (operators)",
    description = "A new client_secret, shown in this answer only; the old one stops working.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @APIResponse(responseCode = "200", description = "The resource server with its new secret.", content = @Content(
    mediaType = "application/json", schema = @Schema(implementation = ResourceServerAdministration.View.class)))
    @APIResponse(responseCode = "401", ref = ApiErrors.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiErrors.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiErrors.NOT_FOUND)
    @APIResponse(responseCode = "409", ref = ApiErrors.CONFLICT)
    @POST
    @Path("/{id}/secret")
    public Uni<Response> newSecret(@PathParam("id") String id) {
        return administration.newSecret(id).map(view -> Response.ok(view).header("Cache-Control", "no-store").build());
    }

    @Operation(operationId = "getResourceServerMetadata", summary = "A resource server's protected resource metadata",
    description = "RFC 9728's document for the resource server to serve at its own /.well-known/oauth-protected-resource: "
    + "its identifier, this authorization server, the scopes it understands, how tokens are sent. Public.")
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "The document.", content = @Content(mediaType = "application/json",
    schema = @Schema(implementation = Metadata.class)))
    @APIResponse(responseCode = "404", ref = ApiErrors.NOT_FOUND)
    @GET
    @Path("/{id}/metadata")
    public Uni<Response> metadata(@PathParam("id") String id) {
        return administration.find(id).map(server -> Response.ok(new Metadata(server.identifier(), server.name(),
                List.of(Issuer.of(config)), server.scopes(), List.of("header"),
                DpopProofs.ALGORITHMS.stream().map(Object::toString).sorted().toList()))
                .header("Cache-Control", "public, max-age=300").build());
    }
}
