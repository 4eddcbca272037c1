package org.ziggurat.auth.endpoints;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
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
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.ziggurat.auth.clients.ClientAuthenticator;
import org.ziggurat.auth.clients.ClientCredentials;
import org.ziggurat.auth.oauth.BearerTokens;
import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.OAuthForm;
import org.ziggurat.auth.tokens.ResourceServerCredentials;
import org.ziggurat.auth.tokens.Revocation;
import org.ziggurat.auth.tokens.TokenDescriptions;

import java.util.Map;

/**
 * What becomes of an issued token, over HTTP: its revocation (RFC 7009), its introspection
 * (RFC 7662) and the spec's token info. Introspection and token info read live access tokens from
 * memory where they may ({@code LiveAccessTokens}).
 */
@Tag(name = "OAuth")
@Path("/oauth")
public class TokenStateResource {

    private final ClientAuthenticator clients;
    private final Revocation revocation;
    private final TokenDescriptions descriptions;
    private final ResourceServerCredentials resourceServers;

    public TokenStateResource(ClientAuthenticator clients, Revocation revocation, TokenDescriptions descriptions,
            ResourceServerCredentials resourceServers) {
        this.resourceServers = resourceServers;
        this.clients = clients;
        this.revocation = revocation;
        this.descriptions = descriptions;
    }

    /**
     * RFC 7009. The caller is a client (its credentials) or holds a bearer token. Unknown, foreign
     * or already revoked tokens answer 200 {} too, so the endpoint tells nothing about them.
     */
    @Operation(operationId = "revokeToken", summary = "Revoke a token",
    description = "RFC 7009. A client revokes its own tokens, with its credentials or a live access token of its own. "
    + "Unknown, foreign or already revoked tokens answer 200 {} too, so the endpoint tells nothing about them.")
    @SecurityRequirement(name = ApiContract.CLIENT_BASIC)
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @SecurityRequirementsSet
    @RequestBody(required = true, content = @Content(mediaType = "application/x-www-form-urlencoded",
    schema = @Schema(implementation = OAuthDocs.TokenRevocation.class)))
    @APIResponse(responseCode = "200", description = "Revoked, or nothing to revoke: an empty object.",
    content = @Content(mediaType = "application/json", schema = @Schema(type = SchemaType.OBJECT, maxProperties = 0)))
    @APIResponse(responseCode = "400", ref = ApiErrors.OAUTH_BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiErrors.OAUTH_UNAUTHORIZED)
    @POST
    @Path("/revoke")
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Response> revoke(String body, @Parameter(hidden = true) @HeaderParam("Content-Type") String contentType,
            @Parameter(hidden = true) @HeaderParam("Authorization") String authorization) {
        OAuthForm form = OAuthForm.parse(contentType, body);
        String token = form.require("token");
        return revocation.revoke(ClientCredentials.claimed(authorization, form), BearerTokens.from(authorization), token)
                .map(count -> OAuthResource.noStore(Response.ok(Map.of())));
    }

    /**
     * RFC 7662, for confidential clients. The gateway (introspection right) may ask about any
     * token; any other client only about its own, else the token is reported inactive. A
     * registered resource server's credential asks about the tokens meant for it.
     */
    @Operation(operationId = "introspectToken", summary = "Introspect a token",
    description = "RFC 7662, for confidential clients: a client learns about its own tokens; a client with the "
    + "introspection right (the gateway) about any; a registered resource server, with its own credential, about the "
    + "access tokens whose audience names it (RFC 7662 section 4), and no other.")
    @SecurityRequirement(name = ApiContract.CLIENT_BASIC)
    @SecurityRequirementsSet
    @RequestBody(required = true, content = @Content(mediaType = "application/x-www-form-urlencoded",
    schema = @Schema(implementation = OAuthDocs.TokenIntrospectionRequest.class)))
    @APIResponse(responseCode = "200", description = "Whether the token is active, and if so what it is; signed (RFC 9701) "
    + "when asked for with Accept.", content = {
    @Content(mediaType = "application/json", schema = @Schema(implementation = OAuthDocs.TokenIntrospection.class)),
    @Content(mediaType = "application/token-introspection+jwt", schema = @Schema(type = SchemaType.STRING,
    description = "A JWT whose token_introspection claim is the JSON answer, signed with the provider's RS256 key."))})
    @APIResponse(responseCode = "400", ref = ApiErrors.OAUTH_BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiErrors.OAUTH_UNAUTHORIZED)
    @POST
    @Path("/introspect")
    @Consumes(MediaType.WILDCARD)
    @Produces({MediaType.APPLICATION_JSON, "application/token-introspection+jwt"})
    public Uni<Response> introspect(String body, @Parameter(hidden = true) @HeaderParam("Content-Type") String contentType,
            @Parameter(hidden = true) @HeaderParam("Authorization") String authorization,
            @Parameter(description = "application/token-introspection+jwt for a signed answer (RFC 9701).")
            @HeaderParam("Accept") String accept) {
        OAuthForm form = OAuthForm.parse(contentType, body);
        String token = form.require("token");
        String hint = form.get("token_type_hint");
        if (hint != null && !hint.equals("access_token") && !hint.equals("refresh_token")) {
            throw new OAuthException(OAuthError.INVALID_REQUEST, "token_type_hint must be access_token or refresh_token.");
        }
        boolean signed = accept != null && accept.toLowerCase().contains(TokenDescriptions.SIGNED_INTROSPECTION);
        ClientCredentials.Claimed claimed = ClientCredentials.claimed(authorization, form);
        // A registered resource server's own credential learns about the tokens meant for it (RFC 7662 §4).
        return resourceServers.authenticate(claimed).chain(server -> server != null
                ? descriptions.introspection(server, token).chain(answer -> answered(answer, server.clientId(), signed))
                : clients.authenticateConfidential(claimed)
                        .chain(app -> descriptions.introspection(app, token).chain(answer -> answered(answer, app.clientId(), signed))));
    }

    /** The answer as JSON, or signed for the asking client (RFC 9701). */
    private Uni<Response> answered(Map<String, Object> answer, String clientId, boolean signed) {
        return !signed ? Uni.createFrom().item(OAuthResource.noStore(Response.ok(answer)))
                : descriptions.signedIntrospection(clientId, answer).map(jwt -> Response.ok(jwt)
                        .type(TokenDescriptions.SIGNED_INTROSPECTION).header("Cache-Control", "no-store")
                        .header("Pragma", "no-cache").build());
    }

    /** The spec's token info: the bearer token's owner, scopes, lifetime left and application. */
    @Operation(operationId = "getTokenInfo", summary = "Get the access token's info",
    description = "The bearer token's owner, scopes, lifetime left and application.")
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @APIResponse(responseCode = "200", description = "The token's info.",
    content = @Content(mediaType = "application/json", schema = @Schema(implementation = OAuthDocs.TokenInfo.class)))
    @APIResponse(responseCode = "401", ref = ApiErrors.OAUTH_UNAUTHORIZED)
    @GET
    @Path("/token/info")
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Response> tokenInfo(@Parameter(hidden = true) @HeaderParam("Authorization") String authorization) {
        String bearer = BearerTokens.from(authorization);
        if (bearer == null) {
            throw new OAuthException(OAuthError.TOKEN_INVALID, "The access token is missing.");
        }
        return descriptions.info(bearer).map(info -> OAuthResource.noStore(Response.ok(info)));
    }
}
