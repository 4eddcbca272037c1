package org.ziggurat.auth.clients;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.platform.rest.openapi.ApiContract;
import org.ziggurat.platform.rest.openapi.ApiErrors;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.platform.http.PathIds;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.rest.http.PublicUrls;

import java.net.URI;
import java.util.List;
import org.ziggurat.platform.token.ScopeNames;

/** The caller's own applications (spec 4.3); managing them needs the {@code admin} scope. */
@Tag(name = "Applications", description = "The caller's OAuth applications (clients), their secrets and accessors. Managing them needs the admin scope.")
@Path("/applications")
@Produces(MediaType.APPLICATION_JSON)
public class ApplicationsResource {


    private final ApplicationService service;

    ApplicationsResource(ApplicationService service) {
        this.service = service;
    }

    @Operation(operationId = "listApplications", summary = "List the caller's applications")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @APIResponse(responseCode = "200", description = "The caller's applications, without secrets.")
    @GET
    public Uni<List<ApplicationViews.Application>> list(@Context UriInfo uri) {
        PublicUrls urls = PublicUrls.of(uri);
        return owner().chain(service::ownedBy)
                .map(rows -> rows.stream().map(r -> ApplicationViews.of(r, null, urls)).toList());
    }

    @Operation(operationId = "createApplication", summary = "Create an application",
    description = "A confidential client (the default) gets a client_secret, shown in this answer only.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = ApplicationInput.class)))
    @APIResponse(responseCode = "201", description = "The new application, with its secret.", headers = @Header(name = "Location",
    description = "The application's URL.", schema = @Schema(type = SchemaType.STRING)), content = @Content(mediaType = "application/json", schema = @Schema(implementation = ApplicationViews.Application.class)))
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> create(JsonNode body, @Context UriInfo uri) {
        PublicUrls urls = PublicUrls.of(uri);
        return service.adminCaller().chain(caller -> service.create(caller, ApplicationFields.parse(body, true))).map(created -> {
            ApplicationViews.Application view = ApplicationViews.of(created.application(), created.secret(), urls);
            return Response.created(URI.create(view.url())).entity(view).header("Cache-Control", "no-store").build();
        });
    }

    @Operation(operationId = "getApplication", summary = "Get one of the caller's applications")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @APIResponse(responseCode = "200", description = "The application, without its secret.")
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @GET
    @Path("/{id}")
    public Uni<ApplicationViews.Application> get(@PathParam("id") String id, @Context UriInfo uri) {
        long appId = PathIds.parse(id, "application");
        return owner().chain(owner -> service.owned(appId, owner)).map(r -> ApplicationViews.of(r, null, PublicUrls.of(uri)));
    }

    @Operation(operationId = "updateApplication", summary = "Change an application",
    description = "Changes the fields the body names. confidential cannot change. A new name or new redirect URIs take "
    + "away the verified mark. {\"verified\": true} (or false), alone, is the platform's operators' mark on anyone's "
    + "application, with their own token (issued without a client); anyone else, and a token issued to an application, "
    + "gets 403.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = ApplicationInput.class)))
    @APIResponse(responseCode = "200", description = "The changed application.")
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @PATCH
    @Path("/{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<ApplicationViews.Application> patch(@PathParam("id") String id, JsonNode body, @Context UriInfo uri) {
        long appId = PathIds.parse(id, "application");
        JsonNode verified = body != null && body.isObject() ? body.get("verified") : null;
        if (verified == null) {
            return service.adminCaller().chain(caller -> service.update(caller, appId, ApplicationFields.parse(body, false), false))
                    .map(r -> ApplicationViews.of(r, null, PublicUrls.of(uri)));
        }
        // The operators' mark: on anyone's application, alone in its request, with an operator's own token.
        return service.adminCaller().chain(caller -> {
            if (!verified.isBoolean()) {
                throw ProblemException.invalidField("verified", "must be true or false");
            }
            if (body.size() > 1) {
                throw ProblemException.invalidField("verified", "is changed alone, by an operator, in a request of its own");
            }
            return service.verify(caller, appId, verified.booleanValue());
        }).map(r -> ApplicationViews.of(r, null, PublicUrls.of(uri)));
    }

    @Operation(operationId = "replaceApplication", summary = "Replace an application's settings",
    description = "name and redirect_uris are required; scopes left out become none. confidential cannot change.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = ApplicationInput.class)))
    @APIResponse(responseCode = "200", description = "The application.")
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @PUT
    @Path("/{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<ApplicationViews.Application> put(@PathParam("id") String id, JsonNode body, @Context UriInfo uri) {
        long appId = PathIds.parse(id, "application");
        return service.adminCaller().chain(caller -> service.update(caller, appId, ApplicationFields.parse(body, true), true))
                .map(r -> ApplicationViews.of(r, null, PublicUrls.of(uri)));
    }

    /** Deleting revokes every token and code of the application. */
    @Operation(operationId = "deleteApplication", summary = "Delete an application",
    description = "Every token and code of the application is revoked with it.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @APIResponse(responseCode = "204", description = "Deleted.")
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @DELETE
    @Path("/{id}")
    public Uni<Response> delete(@PathParam("id") String id) {
        long appId = PathIds.parse(id, "application");
        return owner().chain(owner -> service.delete(owner, appId)).map(v -> Response.noContent().build());
    }

    /** A new secret, shown in this answer only; the old one stops working at once. */
    @Operation(operationId = "resetApplicationSecret", summary = "Reset an application's secret",
    description = "A new client_secret, shown in this answer only; the old one stops working at once.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @APIResponse(responseCode = "200", description = "The application with its new secret.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = ApplicationViews.Application.class)))
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @APIResponse(responseCode = "422", ref = ApiErrors.UNPROCESSABLE)
    @POST
    @Path("/{id}/secret")
    public Uni<Response> resetSecret(@PathParam("id") String id, @Context UriInfo uri) {
        long appId = PathIds.parse(id, "application");
        return owner().chain(owner -> service.resetSecret(owner, appId))
                .map(c -> Response.ok(ApplicationViews.of(c.application(), c.secret(), PublicUrls.of(uri)))
                        .header("Cache-Control", "no-store").build());
    }

    private Uni<Long> owner() {
        return service.admin();
    }


    /** The body of POST, PUT and PATCH, for the API's description (ApplicationFields.parse checks it). */
    @Schema(name = "ApplicationInput")
    record ApplicationInput(
            @Schema(maxLength = 100, description = "Required on create and PUT.") String name,
            @Schema(description = "1 to 10 absolute URIs, matched exactly but for the port of a loopback IP literal "
                    + "(http://127.0.0.1/cb takes any port, RFC 8252); a public client may also use a private-use scheme in "
                    + "reverse-domain form (com.example.app:/cb); required on create and PUT. "
                    + "urn:ietf:wg:oauth:2.0:oob for the out-of-band page.") List<String> redirectUris,
            @Schema(description = "The scopes the application may ask for, space-delimited.", example = "user write")
            String scopes,
            @Schema(description = "A confidential client has a secret (the default); a public one uses PKCE. "
                    + "Set on create only.") Boolean confidential,
            @Schema(description = "Whether the password grant is allowed to this application: false unless asked for "
                    + "(RFC 9700 section 2.4 says it must not be used).") Boolean passwordGrant,
            @Schema(description = "OpenID Connect RP-initiated logout: where /oauth/logout may send the browser back "
                    + "to, 0 to 10 absolute URIs, matched exactly.") List<String> postLogoutRedirectUris,
            @Schema(description = "The algorithm of the application's ID tokens; RS256 by default.",
                    enumeration = {"RS256", "ES256"}) String idTokenSignedResponseAlg,
            @Schema(description = "Whether the application's authorization requests must be pushed first (RFC 9126); "
                    + "false by default.") Boolean requirePushedAuthorizationRequests,
            @Schema(description = "Seconds an authorization lasts from its grant, however often its refresh tokens "
                    + "rotate: 60 up to the platform's limit (90 days by default), which applies when left out.")
            Integer refreshTokenAbsoluteLifetime,
            @Schema(description = "opaque (the default: checked by introspection) or jwt (RFC 9068: signed, checked "
                    + "against the JWKS by any resource server).", enumeration = {"opaque", "jwt"}) String accessTokenFormat,
            @Schema(description = "Whether every token request must carry a DPoP proof (RFC 9449), binding every token "
                    + "to the client's key; false by default.") Boolean dpopBoundAccessTokens,
            @Schema(description = "Whether the application may exchange a person's token it was given for a narrower "
                    + "one for another resource (RFC 8693); false by default.") Boolean tokenExchange,
            @Schema(description = "PATCH only, alone, by one of the platform's operators: the application was checked "
                    + "(see the application's verified).") Boolean verified) {
    }
}
