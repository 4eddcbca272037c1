package org.ziggurat.auth.endpoints;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.auth.oauth.BearerTokens;
import org.ziggurat.auth.dpop.DpopProofs;
import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.OAuthForm;
import org.ziggurat.auth.oauth.Scopes;
import org.ziggurat.auth.tokens.LiveAccessTokens;
import org.ziggurat.auth.tokens.OpenIdClaims;
import org.ziggurat.auth.tokens.SignedUserInfo;
import org.ziggurat.directory.client.DirectoryClient;
import org.ziggurat.platform.rest.openapi.ApiContract;
import org.ziggurat.platform.rest.openapi.ApiErrors;

/**
 * OpenID Connect's userinfo endpoint (Core §5.3): the person of an access token with the openid
 * scope, and their claims by the token's scopes. GET or POST; the token in the Authorization
 * header, or for POST in the form (RFC 6750 §2.2). An ID token is no access token here either.
 */
@Tag(name = "OAuth")
@Path("/oauth/userinfo")
public class UserInfoResource {

    private final LiveAccessTokens liveTokens;
    private final DpopProofs proofs;

    private final OpenIdClaims openIdClaims;
    private final SignedUserInfo signedUserInfo;

    UserInfoResource(LiveAccessTokens liveTokens, DpopProofs proofs, OpenIdClaims openIdClaims,
            SignedUserInfo signedUserInfo) {
        this.signedUserInfo = signedUserInfo;
        this.openIdClaims = openIdClaims;
        this.proofs = proofs;
        this.liveTokens = liveTokens;
    }

    @Operation(operationId = "getUserInfo", summary = "Get the signed-in person's claims",
    description = "OpenID Connect userinfo: sub always; name, preferred_username, picture, profile and updated_at with the "
    + "profile scope; email and email_verified with the email scope. The access token must have the openid scope.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = "openid")
    @APIResponse(responseCode = "200", description = "The claims; signed (application/jwt) for a client that registered "
    + "userinfo_signed_response_alg.",
    content = {@Content(mediaType = "application/json", schema = @Schema(implementation = OAuthDocs.UserInfo.class)),
        @Content(mediaType = "application/jwt", schema = @Schema(type = org.eclipse.microprofile.openapi.annotations.enums.SchemaType.STRING))})
    @APIResponse(responseCode = "401", ref = ApiErrors.OAUTH_UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiErrors.OAUTH_FORBIDDEN)
    @GET
    @Produces({MediaType.APPLICATION_JSON, "application/jwt"})
    public Uni<Response> get(@Parameter(hidden = true) @HeaderParam("Authorization") String authorization,
            @Parameter(description = "With Authorization: DPoP, the call's DPoP proof (RFC 9449).") @HeaderParam("DPoP") String proof) {
        String bound = BearerTokens.dpopFrom(authorization);
        return bound != null ? claimsWithProof(bound, proof, "GET") : claims(BearerTokens.from(authorization));
    }

    @Operation(operationId = "postUserInfo", summary = "Get the signed-in person's claims (POST)",
    description = "The same as GET; the access token may also be sent in the form as access_token.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = "openid")
    @RequestBody(content = @Content(mediaType = "application/x-www-form-urlencoded",
    schema = @Schema(implementation = OAuthDocs.UserInfoRequest.class)))
    @APIResponse(responseCode = "200", description = "The claims; signed (application/jwt) for a client that registered "
    + "userinfo_signed_response_alg.",
    content = {@Content(mediaType = "application/json", schema = @Schema(implementation = OAuthDocs.UserInfo.class)),
        @Content(mediaType = "application/jwt", schema = @Schema(type = org.eclipse.microprofile.openapi.annotations.enums.SchemaType.STRING))})
    @APIResponse(responseCode = "400", ref = ApiErrors.OAUTH_BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiErrors.OAUTH_UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiErrors.OAUTH_FORBIDDEN)
    @POST
    @Consumes(MediaType.WILDCARD)
    @Produces({MediaType.APPLICATION_JSON, "application/jwt"})
    public Uni<Response> post(String body, @Parameter(hidden = true) @HeaderParam("Content-Type") String contentType,
            @Parameter(hidden = true) @HeaderParam("Authorization") String authorization,
            @Parameter(description = "With Authorization: DPoP, the call's DPoP proof (RFC 9449).") @HeaderParam("DPoP") String proof) {
        String bound = BearerTokens.dpopFrom(authorization);
        if (bound != null) {
            return claimsWithProof(bound, proof, "POST");
        }
        String header = BearerTokens.from(authorization);
        String inForm = body == null || body.isEmpty() ? null : OAuthForm.parse(contentType, body).get("access_token");
        if (header != null && inForm != null) {
            // RFC 6750 §2: one way at a time.
            throw OAuthException.invalidRequest("Send the access token once: in the header or in the form.");
        }
        return claims(header != null ? header : inForm);
    }

    private Uni<Response> claims(String bearer) {
        if (bearer == null) {
            throw new OAuthException(OAuthError.TOKEN_MISSING, "The access token is missing.");
        }
        return liveTokens.bearer(bearer).chain(this::claimsOf);
    }

    /** A DPoP-bound token (RFC 9449 §7.1), with the call's proof of its key. */
    private Uni<Response> claimsWithProof(String token, String proof, String method) {
        return liveTokens.dpopBound(token).chain(row -> {
            if (row == null) {
                throw new OAuthException(OAuthError.TOKEN_INVALID, "The access token is invalid, expired, revoked or not "
                        + "bound to a key.");
            }
            return proofs.resourceRequest(method, "/oauth/userinfo", proof, token, row.jkt(), row.clientId())
                    .chain(() -> claimsOf(row));
        });
    }

    /** The claims as JSON, or signed for a client that registered an algorithm ({@link SignedUserInfo}). */
    private Uni<Response.ResponseBuilder> answer(org.ziggurat.auth.tokens.TokenRow row, java.util.Map<String, Object> claims) {
        return signedUserInfo.forClient(row.clientId(), claims).map(jwt -> jwt == null
                ? Response.ok(claims, MediaType.APPLICATION_JSON) : Response.ok(jwt, "application/jwt"));
    }

    private Uni<Response> claimsOf(org.ziggurat.auth.tokens.TokenRow row) {
        return Uni.createFrom().item(row).chain(ignored -> {
            if (row == null || row.personId() == null) {
                throw new OAuthException(OAuthError.TOKEN_INVALID, "The access token is invalid, expired or revoked.");
            }
            if (!row.scopes().contains(Scopes.OPENID)) {
                throw new OAuthException(OAuthError.INSUFFICIENT_SCOPE, "The access token does not have the openid scope.");
            }
            // The research claims as they stand for the token's sign-in: its class, its provider's assurance.
            return openIdClaims.of(row.personId(), row.scopes(), row.amr(), row.id(), null)
                    // The person was deleted after the token was issued.
                    .onFailure(DirectoryClient.NotFound.class).transform(e ->
                            new OAuthException(OAuthError.TOKEN_INVALID, "The access token's person no longer exists."))
                    .chain(claims -> answer(row, claims))
                    .map(answer -> answer.header("Cache-Control", "no-store").header("Pragma", "no-cache").build());
        });
    }
}
