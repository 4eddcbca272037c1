package org.ziggurat.auth.endpoints;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;
import java.util.Map;

/** The shapes of dynamic client registration (RFC 7591, RFC 7592) in the API's description. */
final class RegistrationDocs {

    private RegistrationDocs() {
    }

    @Schema(name = "ClientMetadata", description = "RFC 7591 client metadata, as a tool registers itself.")
    public record ClientMetadataInput(
            @Schema(description = "Required with the authorization_code grant.") List<String> redirectUris,
            String clientName,
            @Schema(enumeration = {"client_secret_basic", "client_secret_post", "private_key_jwt", "none"},
                    description = "none: a public client (PKCE); private_key_jwt: a JWT signed with a key of jwks or "
                    + "jwks_uri (no secret is issued); client_secret_basic by default.") String tokenEndpointAuthMethod,
            @Schema(description = "RFC 7591: the client's public keys (a JWK set: RSA of 2048 bits or more, or EC; at "
                    + "most 10); not with jwks_uri.") Map<String, Object> jwks,
            @Schema(description = "RFC 7591: where the client publishes its JWK set (https; read under the same "
                    + "address rules as webhooks, no redirects, kept 5 minutes).") String jwksUri,
            @Schema(enumeration = {"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512"},
                    description = "The one algorithm its client assertions use (any of these when left out).")
            String tokenEndpointAuthSigningAlg,
            @Schema(description = "authorization_code (the default), refresh_token, password, client_credentials, "
                    + "urn:ietf:params:oauth:grant-type:device_code.") List<String> grantTypes,
            @Schema(description = "[\"code\"] with authorization_code.") List<String> responseTypes,
            @Schema(description = "Space-delimited.", example = "openid profile email") String scope,
            List<String> postLogoutRedirectUris,
            @Schema(enumeration = {"RS256", "ES256"}) String idTokenSignedResponseAlg,
            Boolean requirePushedAuthorizationRequests,
            String clientUri, String logoUri, String tosUri, String policyUri, List<String> contacts,
            String softwareId, String softwareVersion,
            @Schema(description = "RFC 7592 PUT: the registered client's id.") String clientId,
            @Schema(description = "RFC 9449 section 5.2: every token request must carry a DPoP proof.")
            Boolean dpopBoundAccessTokens,
            @Schema(enumeration = {"opaque", "jwt"}, description = "jwt: RFC 9068 access tokens.") String accessTokenFormat) {
    }

    @Schema(name = "ClientInformation", description = "RFC 7591 section 3.2.1: a registered client, its metadata as registered.")
    public record ClientInformation(@Schema(required = true) String clientId,
            @Schema(description = "Only in the answer to registering, and only for confidential clients.") String clientSecret,
            Long clientIdIssuedAt,
            @Schema(description = "0: the secret does not expire.") Long clientSecretExpiresAt,
            @Schema(description = "Only in the answer to registering.") String registrationAccessToken,
            @Schema(required = true) String registrationClientUri,
            String clientName, List<String> redirectUris, String scope, List<String> grantTypes, List<String> responseTypes,
            String tokenEndpointAuthMethod, Map<String, Object> jwks, String jwksUri, String tokenEndpointAuthSigningAlg,
            List<String> postLogoutRedirectUris, String idTokenSignedResponseAlg,
            Boolean requirePushedAuthorizationRequests, String clientUri, String logoUri, String tosUri, String policyUri,
            List<String> contacts, String softwareId, String softwareVersion, Boolean dpopBoundAccessTokens,
            @Schema(enumeration = {"opaque", "jwt"}) String accessTokenFormat) {
    }
}
