package org.ziggurat.auth.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.ziggurat.auth.oauth.Scopes;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A registered client described as the metadata it registered (RFC 7591 §3.2.1, RFC 7592 §3). */
public final class ClientDescriptions {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ClientDescriptions() {
    }

    /** The metadata an application registered (RFC 7591 §3.2.1), without secrets. */
    public static Map<String, Object> describe(ApplicationRow app) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("client_id", app.clientId());
        out.put("client_id_issued_at", app.createdAt().getEpochSecond());
        out.put("client_name", app.name());
        out.put("redirect_uris", app.redirectUris());
        out.put("scope", String.join(" ", Scopes.granted(app.scopes())));
        JsonNode kept = ClientMetadata.keptOf(app);
        List<String> grants = new ArrayList<>();
        kept.path("grant_types").forEach(g -> grants.add(g.asText()));
        out.put("grant_types", grants);
        out.put("response_types", grants.contains("authorization_code") ? List.of("code") : List.of());
        out.put("token_endpoint_auth_method", kept.path("token_endpoint_auth_method").asText(
                app.confidential() ? "client_secret_basic" : "none"));
        out.put("post_logout_redirect_uris", app.postLogoutRedirectUris());
        out.put("id_token_signed_response_alg", app.idTokenAlg());
        out.put("require_pushed_authorization_requests", app.requirePushedRequests());
        out.put("dpop_bound_access_tokens", app.dpopBoundAccessTokens());
        out.put("access_token_format", app.accessTokenFormat());
        for (String name : ClientMetadata.DESCRIPTIVE) {
            if (kept.hasNonNull(name)) {
                out.put(name, kept.get(name).asText());
            }
        }
        if (kept.hasNonNull("jwks")) {
            out.put("jwks", JSON.convertValue(kept.get("jwks"), Map.class));
        }
        for (String name : List.of("jwks_uri", "token_endpoint_auth_signing_alg", "request_object_signing_alg",
                "userinfo_signed_response_alg")) {
            if (kept.hasNonNull(name)) {
                out.put(name, kept.get(name).asText());
            }
        }
        RelyingPartyMetadata relyingParty = RelyingPartyMetadata.of(app);
        if (!relyingParty.requestUris().isEmpty()) {
            out.put("request_uris", relyingParty.requestUris());
        }
        if (kept.has("contacts")) {
            List<String> contacts = new ArrayList<>();
            kept.get("contacts").forEach(c -> contacts.add(c.asText()));
            out.put("contacts", contacts);
        }
        return out;
    }
}
