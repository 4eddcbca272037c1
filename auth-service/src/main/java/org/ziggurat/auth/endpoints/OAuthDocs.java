package org.ziggurat.auth.endpoints;

import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The shapes of the /oauth endpoints' forms and answers, for the API's description: the
 * endpoints read forms and write maps (RFC 6749, 7009, 7662, 8414), so the description needs them
 * named. {@code OAuthResource} and {@code TokenResponses} are what they describe.
 */
public final class OAuthDocs {

    private OAuthDocs() {
    }

    @Schema(name = "TokenRequest", description = "A grant at the token endpoint (RFC 6749 section 4). Which fields a grant "
            + "needs: authorization_code: code, redirect_uri (and code_verifier with PKCE); password: username, password; "
            + "refresh_token: refresh_token; client_credentials: client authentication; "
            + "urn:ietf:params:oauth:grant-type:device_code (RFC 8628): device_code.")
    public record TokenRequest(
            @Schema(required = true, enumeration = {"authorization_code", "password", "refresh_token", "client_credentials",
                    "urn:ietf:params:oauth:grant-type:device_code", "urn:ietf:params:oauth:grant-type:token-exchange"})
            String grantType,
            String code,
            String redirectUri,
            @Schema(description = "The PKCE verifier (RFC 7636) of the code's challenge.") String codeVerifier,
            String username,
            @Schema(format = "password") String password,
            @Schema(format = "password", description = "password grant without a client (the platform's own tools), for a "
                    + "person with two-factor authentication: a code of it (TOTP or a recovery code).") String otp,
            String refreshToken,
            @Schema(description = "RFC 8628: the device code of /oauth/device_authorization.") String deviceCode,
            @Schema(description = "Space-delimited scopes: public, user, write, update, admin, openid, profile, email.")
            String scope,
            @Schema(description = "client_secret_post, or a public client naming itself.") String clientId,
            @Schema(format = "password") String clientSecret,
            @Schema(description = "private_key_jwt (RFC 7523): urn:ietf:params:oauth:client-assertion-type:jwt-bearer.")
            String clientAssertionType,
            @Schema(description = "private_key_jwt: a JWT signed with a key the client registered (iss and sub its "
                    + "client_id, aud this server, exp, jti; good once).") String clientAssertion,
            @Schema(description = "RFC 8707: the resource server the access token is for (an absolute URI a resource "
                    + "server registered; repeat it for several); the token's scopes are then those it understands.")
            String resource,
            @Schema(description = "The same as resource, as tools sent it before RFC 8707; in a token exchange, RFC "
                    + "8693's audience.") String audience,
            @Schema(description = "RFC 8693: the access token to exchange.") String subjectToken,
            @Schema(description = "RFC 8693: urn:ietf:params:oauth:token-type:access_token (or :jwt).") String subjectTokenType,
            @Schema(description = "RFC 8693: urn:ietf:params:oauth:token-type:access_token (or :jwt).")
            String requestedTokenType) {
    }

    @Schema(name = "TokenResponse", description = "RFC 6749 section 5.1. Never cached.")
    public record TokenResponse(
            @Schema(required = true) String accessToken,
            @Schema(required = true, enumeration = {"bearer", "DPoP"},
                    description = "DPoP: bound to the key of the request's DPoP proof (RFC 9449).") String tokenType,
            @Schema(required = true, description = "Seconds until the access token expires.", example = "7200") long expiresIn,
            @Schema(description = "Present in the grants that issue one; it rotates on every use.") String refreshToken,
            @Schema(required = true, description = "Space-delimited; public when none was asked for.", example = "user write")
            String scope,
            @Schema(description = "Unix time, in seconds, of issue.") long createdAt,
            @Schema(description = "OpenID Connect: the ID token (a signed JWT), when the scopes have openid and the "
                    + "grant has a person and a client.") String idToken,
            @Schema(description = "RFC 8693: the type of the token an exchange issued.") String issuedTokenType) {
    }

    @Schema(name = "TokenInfo", description = "The bearer token's owner, scopes, lifetime left and application.")
    public record TokenInfo(
            @Schema(required = true, nullable = true, description = "The person; null for a client's own token.") Long resourceOwnerId,
            @Schema(required = true) List<String> scopes,
            @Schema(required = true) long expiresInSeconds,
            @Schema(required = true) TokenInfoApplication application,
            @Schema(required = true, description = "Unix time, in seconds.") long createdAt) {
    }

    @Schema(name = "TokenInfoApplication")
    public record TokenInfoApplication(@Schema(required = true, nullable = true, description = "The client id.") String uid) {
    }

    @Schema(name = "TokenRevocation", description = "RFC 7009: the token to revoke, by its client (Basic or form "
            + "credentials) or by a bearer of a live token of the same application.")
    public record TokenRevocation(@Schema(required = true) String token,
            @Schema(enumeration = {"access_token", "refresh_token"}) String tokenTypeHint,
            String clientId, @Schema(format = "password") String clientSecret,
            @Schema(description = "private_key_jwt: as at the token endpoint.") String clientAssertionType,
            @Schema(description = "private_key_jwt: as at the token endpoint.") String clientAssertion) {
    }

    @Schema(name = "TokenIntrospectionRequest", description = "RFC 7662, by a confidential client.")
    public record TokenIntrospectionRequest(@Schema(required = true) String token,
            @Schema(enumeration = {"access_token", "refresh_token"}) String tokenTypeHint,
            String clientId, @Schema(format = "password") String clientSecret,
            @Schema(description = "private_key_jwt: as at the token endpoint.") String clientAssertionType,
            @Schema(description = "private_key_jwt: as at the token endpoint.") String clientAssertion) {
    }

    @Schema(name = "TokenIntrospection", description = "RFC 7662 section 2.2; an inactive token is {\"active\": false} alone.")
    public record TokenIntrospection(@Schema(required = true) boolean active, String scope, String clientId, String username,
            String sub, @Schema(enumeration = {"bearer", "DPoP", "refresh_token"},
                    description = "bearer: an access token; DPoP: one bound to a key (RFC 9449).") String tokenType,
            Long exp, Long iat,
            @Schema(description = "When the authorization (the grant this token belongs to) ends, in seconds since the "
                    + "epoch, however often its refresh tokens rotate.") Long authorizationExp,
            String iss,
            @Schema(description = "How the person signed in (RFC 9470 section 6.2): https://refeds.org/profile/sfa "
                    + "(a password alone) or https://refeds.org/profile/mfa (with a second factor). Absent for a client "
                    + "acting for itself, and for tokens issued before it was kept.") String acr,
            @Schema(description = "The sign-in's methods (RFC 8176: pwd, otp, hwk, swk, mfa), as the ID token says them.")
            List<String> amr,
            @Schema(description = "When the person signed in, in seconds since the epoch.") Long authTime,
            @Schema(description = "An access token's audience (RFC 8707): the identifiers of the resources it is for.")
            List<String> aud,
            @Schema(description = "RFC 9449: the thumbprint (jkt) of the key a DPoP token is bound to.") Map<String, String> cnf,
            @Schema(description = "RFC 8693: the service that exchanged a person's token for this one (sub), and "
                    + "those before it (act).") Map<String, Object> act) {
    }

    @Schema(name = "AuthorizationServerMetadata", description = "RFC 8414, and OpenID Connect Discovery: one document "
            + "served at both well-known addresses.")
    public record ServerMetadata(@Schema(required = true) String issuer,
            @Schema(required = true) String authorizationEndpoint,
            @Schema(required = true) String tokenEndpoint,
            String revocationEndpoint,
            String introspectionEndpoint,
            @Schema(description = "The JWK Set of the keys that sign ID tokens.") String jwksUri,
            @Schema(description = "OpenID Connect: the person's claims, by scope.") String userinfoEndpoint,
            @Schema(description = "OpenID Connect RP-initiated logout.") String endSessionEndpoint,
            @Schema(description = "RFC 8628.") String deviceAuthorizationEndpoint,
            @Schema(description = "RFC 7591.") String registrationEndpoint,
            @Schema(description = "RFC 9126.") String pushedAuthorizationRequestEndpoint,
            Boolean requirePushedAuthorizationRequests,
            List<String> scopesSupported,
            @Schema(required = true) List<String> responseTypesSupported,
            List<String> responseModesSupported,
            List<String> grantTypesSupported,
            List<String> tokenEndpointAuthMethodsSupported,
            List<String> tokenEndpointAuthSigningAlgValuesSupported,
            List<String> revocationEndpointAuthMethodsSupported,
            List<String> revocationEndpointAuthSigningAlgValuesSupported,
            List<String> introspectionEndpointAuthMethodsSupported,
            List<String> introspectionEndpointAuthSigningAlgValuesSupported,
            List<String> requestObjectSigningAlgValuesSupported,
            List<String> codeChallengeMethodsSupported,
            Boolean authorizationResponseIssParameterSupported,
            @Schema(description = "OpenID Connect: public, the same sub for every client.") List<String> subjectTypesSupported,
            List<String> idTokenSigningAlgValuesSupported,
            List<String> claimsSupported,
            @Schema(description = "REFEDS assurance profiles: sfa (a password) and mfa (a second factor too).")
            List<String> acrValuesSupported,
            List<String> promptValuesSupported,
            Boolean claimsParameterSupported,
            Boolean requestParameterSupported,
            Boolean requestUriParameterSupported,
            @Schema(description = "OpenID Connect Core 6.2: a request_uri other than a pushed request's must be one the "
                    + "application registered (request_uris).") Boolean requireRequestUriRegistration,
            @Schema(description = "OpenID Connect Core 5.3.2: the algorithms of signed userinfo answers.")
            List<String> userinfoSigningAlgValuesSupported,
            @Schema(description = "RFC 9449: the algorithms of DPoP proofs.") List<String> dpopSigningAlgValuesSupported,
            @Schema(description = "RFC 9701: the algorithms of signed introspection answers.")
            List<String> introspectionSigningAlgValuesSupported,
            @Schema(description = "draft-ietf-oauth-status-list: the list of the token status lists of JWT access tokens.")
            String statusListAggregationEndpoint) {
    }

    @Schema(name = "StatusListAggregation", description = "draft-ietf-oauth-status-list §9.3: every token status list.")
    public record StatusListAggregation(@Schema(required = true, description = "The lists' addresses.")
            List<String> statusLists) {
    }

    @Schema(name = "UserInfo", description = "OpenID Connect userinfo claims (Core section 5.1), by the token's scopes.")
    public record UserInfo(
            @Schema(required = true, description = "The person's id: stable, never the username.", example = "42") String sub,
            @Schema(description = "profile scope.") String name,
            @Schema(description = "profile scope.") String preferredUsername,
            @Schema(description = "profile scope.") String picture,
            @Schema(description = "profile scope: the person's page.") String profile,
            @Schema(description = "profile scope: Unix time of the profile's last change.") Long updatedAt,
            @Schema(description = "email scope: the sign-in address.") String email,
            @Schema(description = "email scope: false, the directory does not prove addresses.") Boolean emailVerified) {
    }

    @Schema(name = "UserInfoRequest", description = "RFC 6750 section 2.2: the access token in the form, when not in the header.")
    public record UserInfoRequest(String accessToken) {
    }

    @Schema(name = "DeviceAuthorizationRequest", description = "RFC 8628 section 3.1.")
    public record DeviceAuthorizationRequest(@Schema(description = "Public clients; confidential ones use Basic.")
            String clientId, @Schema(format = "password") String clientSecret, @Schema(description = "private_key_jwt: as at the token endpoint.") String clientAssertionType,
            @Schema(description = "private_key_jwt: as at the token endpoint.") String clientAssertion,
            @Schema(description = "Space-delimited.", example = "openid user") String scope) {
    }

    @Schema(name = "DeviceAuthorization", description = "RFC 8628 section 3.2.")
    public record DeviceAuthorization(@Schema(required = true) String deviceCode,
            @Schema(required = true, description = "Eight letters in two groups, to type at verification_uri.",
                    example = "BCDF-GHJK") String userCode,
            @Schema(required = true) String verificationUri,
            String verificationUriComplete,
            @Schema(required = true, description = "Seconds.", example = "600") long expiresIn,
            @Schema(description = "Seconds between polls.", example = "5") long interval) {
    }

    @Schema(name = "PushedAuthorizationRequest", description = "RFC 9126 section 2.1: an authorization request's "
            + "parameters, with the client's authentication (Basic, or client_id for public clients).")
    public record PushedRequest(@Schema(required = true, enumeration = "code") String responseType, String clientId,
            @Schema(format = "password") String clientSecret, @Schema(description = "private_key_jwt: as at the token endpoint.") String clientAssertionType,
            @Schema(description = "private_key_jwt: as at the token endpoint.") String clientAssertion, String redirectUri, String scope, String state,
            String codeChallenge, @Schema(enumeration = "S256") String codeChallengeMethod, String nonce, String prompt,
            String maxAge, @Schema(description = "RFC 8707: a resource the tokens are for (repeat it for several).")
            String resource, @Schema(description = "RFC 9449 section 10: the thumbprint of the DPoP key the code is "
                    + "bound to.") String dpopJkt) {
    }

    @Schema(name = "PushedAuthorizationResponse", description = "RFC 9126 section 2.2.")
    public record PushedRequestAnswer(
            @Schema(required = true, example = "urn:ietf:params:oauth:request_uri:6esc_11ACC5bwc014ltc14eY22c") String requestUri,
            @Schema(required = true, description = "Seconds.", example = "60") long expiresIn) {
    }
}
