package org.ziggurat.auth.endpoints;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirementsSet;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import org.ziggurat.auth.oauth.Pkce;
import org.ziggurat.auth.oauth.Scopes;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.ziggurat.auth.AuthConfig;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** RFC 8414 authorization server metadata: enough for a standard OAuth client to configure itself. */
@Tag(name = "OAuth")
@Path("/.well-known/oauth-authorization-server")
public class MetadataResource {

    @Inject
    AuthConfig config;

    @Operation(operationId = "getAuthorizationServerMetadata", summary = "Get the authorization server's metadata",
    description = "RFC 8414: the endpoints, grants, scopes and client authentication methods, for OAuth clients to configure themselves.")
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "The metadata.",
    content = @Content(mediaType = "application/json", schema = @Schema(implementation = OAuthDocs.ServerMetadata.class)))
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, Object> metadata() {
        String issuer = config.issuer().endsWith("/") ? config.issuer().substring(0, config.issuer().length() - 1)
                : config.issuer();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("issuer", issuer);
        m.put("authorization_endpoint", issuer + "/oauth/authorize");
        m.put("token_endpoint", issuer + "/oauth/token");
        m.put("revocation_endpoint", issuer + "/oauth/revoke");
        m.put("introspection_endpoint", issuer + "/oauth/introspect");
        m.put("jwks_uri", issuer + "/oauth/jwks");
        m.put("scopes_supported", Scopes.KNOWN);
        m.put("response_types_supported", List.of("code"));
        m.put("response_modes_supported", List.of("query"));
        m.put("grant_types_supported", List.of("authorization_code", "password", "refresh_token", "client_credentials"));
        m.put("token_endpoint_auth_methods_supported", List.of("client_secret_basic", "client_secret_post", "none"));
        m.put("revocation_endpoint_auth_methods_supported", List.of("client_secret_basic", "client_secret_post"));
        m.put("introspection_endpoint_auth_methods_supported", List.of("client_secret_basic", "client_secret_post"));
        m.put("code_challenge_methods_supported", List.of(Pkce.S256));
        m.put("authorization_response_iss_parameter_supported", false);
        return m;
    }
}
