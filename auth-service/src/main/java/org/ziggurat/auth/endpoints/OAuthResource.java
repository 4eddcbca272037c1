package org.ziggurat.auth.endpoints;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirementsSet;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.platform.rest.openapi.ApiContract;
import org.ziggurat.platform.rest.openapi.ApiErrors;

import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.ziggurat.auth.authorization.AuthorizationRequest;
import org.ziggurat.auth.authorization.PushedRequests;
import org.ziggurat.auth.clients.ClientAuthenticator;
import org.ziggurat.auth.clients.ClientCredentials;
import org.ziggurat.auth.granttypes.DeviceAuthorizations;
import org.ziggurat.auth.granttypes.TokenGrants;
import org.ziggurat.auth.http.CallerAddress;
import org.ziggurat.auth.oauth.OAuthForm;
import org.ziggurat.auth.oauth.Scopes;
import org.ziggurat.auth.oauth.TokenResponses;

import java.util.Map;
import java.util.Set;

/**
 * The token endpoint, pushed authorization requests (RFC 9126) and device authorization (RFC 8628)
 * over HTTP: forms in, answers out. The grants are {@link TokenGrants}'. What becomes of a token
 * once issued (revocation, introspection, token info) is {@link TokenStateResource}'s.
 */
@Tag(name = "OAuth", description = "The OAuth 2.0 authorization server: authorization, tokens, revocation (RFC 7009), "
        + "introspection (RFC 7662), token info and metadata (RFC 8414). Errors are RFC 6749 bodies.")
@Path("/oauth")
public class OAuthResource {

    private final ClientAuthenticator clients;
    private final TokenGrants grants;
    private final DeviceAuthorizations deviceAuthorizations;
    private final PushedRequests pushedRequests;

    public OAuthResource(ClientAuthenticator clients, TokenGrants grants, DeviceAuthorizations deviceAuthorizations,
            PushedRequests pushedRequests) {
        this.pushedRequests = pushedRequests;
        this.clients = clients;
        this.grants = grants;
        this.deviceAuthorizations = deviceAuthorizations;
    }

    @Operation(operationId = "token", summary = "Issue tokens",
    description = "The token endpoint (RFC 6749 section 3.2): authorization_code (with PKCE), password, refresh_token "
    + "and client_credentials grants. Confidential clients authenticate with Basic or form credentials; public "
    + "clients name themselves with client_id. The device_code grant (RFC 8628) answers authorization_pending, "
    + "slow_down (the interval grows by 5 s), access_denied or expired_token until the tokens. "
    + "Every grant answers JSON, unless the client asks for form encoding or XML with Accept (the spec's "
    + "form-encoded default of the code exchange is kept for the clients that ask for it).")
    @SecurityRequirement(name = ApiContract.CLIENT_BASIC)
    @SecurityRequirementsSet
    @RequestBody(required = true, content = @Content(mediaType = "application/x-www-form-urlencoded",
    schema = @Schema(implementation = OAuthDocs.TokenRequest.class)))
    @APIResponse(responseCode = "200", description = "The tokens.", headers = @Header(name = "Cache-Control",
    description = "no-store", schema = @Schema(type = SchemaType.STRING)), content = {
    @Content(mediaType = "application/json", schema = @Schema(implementation = OAuthDocs.TokenResponse.class)),
    @Content(mediaType = "application/xml", schema = @Schema(type = SchemaType.STRING,
    description = "<OAuth> with token_type, scope, access_token and the other fields as elements.")),
    @Content(mediaType = "application/x-www-form-urlencoded", schema = @Schema(type = SchemaType.STRING,
    description = "access_token=...&token_type=bearer&..."))})
    @APIResponse(responseCode = "400", ref = ApiErrors.OAUTH_BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiErrors.OAUTH_UNAUTHORIZED)
    @APIResponse(responseCode = "429", ref = ApiErrors.OAUTH_SLOW_DOWN)
    @POST
    @Path("/token")
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> token(String body, @Parameter(hidden = true) @HeaderParam("Content-Type") String contentType,
            @Parameter(hidden = true) @HeaderParam("Authorization") String authorization, @Parameter(hidden = true) @HeaderParam("Accept") String accept,
            @Parameter(description = "A DPoP proof (RFC 9449): the tokens are then bound to its key (token_type DPoP).")
            @HeaderParam("DPoP") String dpop,
            @Context HttpServerRequest request) {
        return grants.issue(OAuthForm.parse(contentType, body), authorization, dpop, CallerAddress.of(request))
                .map(issued -> TokenResponses.of(issued, accept));
    }

    /** RFC 9126: the client pushes its authorization request; the browser then carries only the request_uri. */
    @Operation(operationId = "pushAuthorizationRequest", summary = "Push an authorization request (RFC 9126)",
    description = "The authorization request's parameters, checked as the authorization endpoint checks them, stored for "
    + "60 seconds: the browser goes to /oauth/authorize with client_id and the request_uri only. Required of the "
    + "applications that set require_pushed_authorization_requests.")
    @SecurityRequirement(name = ApiContract.CLIENT_BASIC)
    @SecurityRequirementsSet
    @RequestBody(required = true, content = @Content(mediaType = "application/x-www-form-urlencoded",
    schema = @Schema(implementation = OAuthDocs.PushedRequest.class)))
    @APIResponse(responseCode = "201", description = "Stored.", content = @Content(mediaType = "application/json",
    schema = @Schema(implementation = OAuthDocs.PushedRequestAnswer.class)))
    @APIResponse(responseCode = "400", ref = ApiErrors.OAUTH_BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiErrors.OAUTH_UNAUTHORIZED)
    @APIResponse(responseCode = "429", ref = ApiErrors.OAUTH_SLOW_DOWN)
    @POST
    @Path("/par")
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Response> pushAuthorizationRequest(String body,
            @Parameter(hidden = true) @HeaderParam("Content-Type") String contentType,
            @Parameter(hidden = true) @HeaderParam("Authorization") String authorization) {
        OAuthForm form = OAuthForm.parse(contentType, body);
        Map<String, String> params = form.only(AuthorizationRequest.PARAMETERS);
        return clients.authenticate(ClientCredentials.claimed(authorization, form))
                .chain(app -> pushedRequests.push(app, params))
                .map(pushed -> noStore(Response.status(201).entity(Map.of("request_uri", pushed.requestUri(),
                        "expires_in", pushed.expiresIn()))));
    }

    /**
     * RFC 8628 §3.1: a device without a browser asks to be authorized; the person enters the
     * user code at the verification URI, in a browser elsewhere.
     */
    @Operation(operationId = "startDeviceAuthorization", summary = "Start a device authorization",
    description = "RFC 8628, for command-line tools and notebooks: the device code to poll the token endpoint with "
    + "(grant_type urn:ietf:params:oauth:grant-type:device_code), and the user code that the person enters at "
    + "verification_uri. Confidential clients authenticate; public clients name themselves with client_id.")
    @SecurityRequirement(name = ApiContract.CLIENT_BASIC)
    @SecurityRequirementsSet
    @RequestBody(required = true, content = @Content(mediaType = "application/x-www-form-urlencoded",
    schema = @Schema(implementation = OAuthDocs.DeviceAuthorizationRequest.class)))
    @APIResponse(responseCode = "200", description = "The codes.", content = @Content(mediaType = "application/json",
    schema = @Schema(implementation = OAuthDocs.DeviceAuthorization.class)))
    @APIResponse(responseCode = "400", ref = ApiErrors.OAUTH_BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiErrors.OAUTH_UNAUTHORIZED)
    @APIResponse(responseCode = "429", ref = ApiErrors.OAUTH_SLOW_DOWN)
    @POST
    @Path("/device_authorization")
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Response> deviceAuthorization(String body, @Parameter(hidden = true) @HeaderParam("Content-Type") String contentType,
            @Parameter(hidden = true) @HeaderParam("Authorization") String authorization) {
        OAuthForm form = OAuthForm.parse(contentType, body);
        Set<String> scopes = Scopes.parse(form.get("scope"));
        return deviceAuthorizations.start(ClientCredentials.claimed(authorization, form), scopes)
                .map(answer -> noStore(Response.ok(answer)));
    }

    /** A JSON answer that no cache keeps: tokens, secrets, and what is about them. */
    static Response noStore(Response.ResponseBuilder builder) {
        return builder.type(MediaType.APPLICATION_JSON).header("Cache-Control", "no-store").header("Pragma", "no-cache").build();
    }
}
