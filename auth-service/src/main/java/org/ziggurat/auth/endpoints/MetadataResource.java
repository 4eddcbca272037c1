package org.ziggurat.auth.endpoints;

import org.ziggurat.auth.oauth.AuthenticationMethods;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirementsSet;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import org.ziggurat.auth.Issuer;
import org.ziggurat.auth.clients.ClientAssertions;
import org.ziggurat.auth.keys.SigningKeys;
import org.ziggurat.auth.oauth.GrantTypes;
import org.ziggurat.auth.oauth.Pkce;
import org.ziggurat.auth.oauth.Scopes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.oauth.UserInfoClaims;

import java.util.LinkedHashMap;

import java.util.List;
import java.util.Map;

/**
 * RFC 8414 authorization server metadata and OpenID Connect Discovery: one document at both
 * addresses, so that OAuth clients and relying parties configure themselves alike.
 */
@Tag(name = "OAuth")
@Path("/.well-known")
public class MetadataResource {

    private final Map<String, Object> document;
    /** The issuer's path without its leading slash ("api"), where RFC 8414 §3 puts the document too; null for none. */
    private final String issuerPath;

    MetadataResource(AuthConfig config) {
        this.document = document(Issuer.of(config));
        String path = java.net.URI.create(Issuer.of(config)).getPath();
        this.issuerPath = path == null || path.isEmpty() || path.equals("/") ? null : path.substring(1);
    }

    @Operation(operationId = "getAuthorizationServerMetadata", summary = "Get the authorization server's metadata",
    description = "RFC 8414: the endpoints, grants, scopes and client authentication methods, for OAuth clients to configure "
    + "themselves. The same document as /.well-known/openid-configuration.")
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "The metadata.",
    content = @Content(mediaType = "application/json", schema = @Schema(implementation = OAuthDocs.ServerMetadata.class)))
    @GET
    @Path("/oauth-authorization-server")
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, Object> metadata() {
        return document;
    }

    /**
     * RFC 8414 §3: for an issuer with a path ({@code https://host/api}), the metadata is at
     * {@code https://host/.well-known/oauth-authorization-server/api} (the well-known segment
     * between host and path), where oauth4webapi and other strict clients look. The gateway
     * forwards that host-root path here. The same document; any other suffix is no issuer's.
     */
    @Operation(hidden = true)
    @GET
    @Path("/oauth-authorization-server/{issuerPath: .+}")
    @Produces(MediaType.APPLICATION_JSON)
    public jakarta.ws.rs.core.Response metadataForIssuerPath(@jakarta.ws.rs.PathParam("issuerPath") String path) {
        if (issuerPath == null || !issuerPath.equals(path)) {
            throw org.ziggurat.platform.problem.ProblemException.notFound("No issuer has that path here.");
        }
        return jakarta.ws.rs.core.Response.ok(document).build();
    }

    @Operation(operationId = "getOpenIdConfiguration", summary = "Get the OpenID provider's configuration",
    description = "OpenID Connect Discovery 1.0: the issuer's endpoints, keys, scopes, claims and algorithms. The same "
    + "document as /.well-known/oauth-authorization-server.")
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "The configuration.",
    content = @Content(mediaType = "application/json", schema = @Schema(implementation = OAuthDocs.ServerMetadata.class)))
    @GET
    @Path("/openid-configuration")
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, Object> openIdConfiguration() {
        return document;
    }

    static Map<String, Object> document(String issuer) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("issuer", issuer);
        m.put("authorization_endpoint", issuer + "/oauth/authorize");
        m.put("token_endpoint", issuer + "/oauth/token");
        m.put("revocation_endpoint", issuer + "/oauth/revoke");
        m.put("introspection_endpoint", issuer + "/oauth/introspect");
        m.put("jwks_uri", issuer + "/oauth/jwks");
        m.put("userinfo_endpoint", issuer + "/oauth/userinfo");
        m.put("end_session_endpoint", issuer + "/oauth/logout");
        m.put("device_authorization_endpoint", issuer + "/oauth/device_authorization");
        m.put("registration_endpoint", issuer + "/oauth/register");
        m.put("pushed_authorization_request_endpoint", issuer + "/oauth/par");
        m.put("require_pushed_authorization_requests", false);
        m.put("scopes_supported", Scopes.KNOWN);
        m.put("response_types_supported", List.of("code"));
        m.put("response_modes_supported", List.of("query"));
        m.put("grant_types_supported", GrantTypes.SUPPORTED);
        m.put("token_endpoint_auth_methods_supported", List.of("client_secret_basic", "client_secret_post", "private_key_jwt",
                "none"));
        m.put("token_endpoint_auth_signing_alg_values_supported", ClientAssertions.ALGORITHMS);
        m.put("revocation_endpoint_auth_methods_supported", List.of("client_secret_basic", "client_secret_post",
                "private_key_jwt"));
        m.put("revocation_endpoint_auth_signing_alg_values_supported", ClientAssertions.ALGORITHMS);
        m.put("introspection_endpoint_auth_methods_supported", List.of("client_secret_basic", "client_secret_post",
                "private_key_jwt"));
        m.put("introspection_endpoint_auth_signing_alg_values_supported", ClientAssertions.ALGORITHMS);
        m.put("code_challenge_methods_supported", List.of(Pkce.S256));
        m.put("authorization_response_iss_parameter_supported", true);
        m.put("subject_types_supported", List.of("public"));
        m.put("id_token_signing_alg_values_supported", SigningKeys.ALGORITHMS);
        // RFC 9449 §5.1: the algorithms of DPoP proofs this server checks.
        m.put("dpop_signing_alg_values_supported", org.ziggurat.auth.dpop.DpopProofs.ALGORITHMS.stream()
                .map(Object::toString).sorted().toList());
        // RFC 9701 §6: signed introspection answers (Accept: application/token-introspection+jwt).
        // What signed answers are signed with (TokenDescriptions): RS256, whatever else the keys offer.
        m.put("introspection_signing_alg_values_supported", List.of("RS256"));
        m.put("claims_supported", UserInfoClaims.SUPPORTED);
        m.put("acr_values_supported", List.of(AuthenticationMethods.ACR_SINGLE_FACTOR, AuthenticationMethods.ACR_MULTI_FACTOR));
        m.put("prompt_values_supported", List.of("none", "login", "consent", "select_account"));
        // OpenID Connect Core §6.1: signed with a key the client registered; never alg none.
        m.put("request_parameter_supported", true);
        // Core §5.5: individual claims for the ID token (and userinfo), within what the scopes grant.
        m.put("claims_parameter_supported", true);
        m.put("request_object_signing_alg_values_supported", ClientAssertions.ALGORITHMS);
        // request_uri: a pushed request's (RFC 9126), or a request object by reference at an address the
        // application registered (Core §6.2).
        m.put("request_uri_parameter_supported", true);
        m.put("require_request_uri_registration", true);
        m.put("userinfo_signing_alg_values_supported", org.ziggurat.auth.clients.ApplicationFields.ID_TOKEN_ALGORITHMS);
        // draft-ietf-oauth-status-list §9.1: where the token status lists of JWT access tokens are listed.
        m.put("status_list_aggregation_endpoint", issuer + "/oauth/status-lists");
        return java.util.Collections.unmodifiableMap(m);
    }
}
