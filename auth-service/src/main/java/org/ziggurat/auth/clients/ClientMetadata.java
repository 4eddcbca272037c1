package org.ziggurat.auth.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.ziggurat.auth.oauth.GrantTypes;
import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.RedirectUris;
import org.ziggurat.platform.problem.Problem;
import org.ziggurat.platform.problem.ProblemException;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * RFC 7591 client metadata and the platform's applications, both ways: what a registration asks
 * for becomes the fields of {@code POST /applications} (validated there, the same way) and the
 * metadata without a column of its own; an application is described as the metadata it registered.
 */
public final class ClientMetadata {

    static final List<String> AUTH_METHODS = List.of("client_secret_basic", "client_secret_post", "private_key_jwt", "none");
    /** A client that proves itself with a JWT signed by one of its registered keys (RFC 7523, OpenID Connect Core §9). */
    static final String PRIVATE_KEY_JWT = "private_key_jwt";
    /** Kept and returned as registered; not used by this server. */
    static final List<String> DESCRIPTIVE = List.of("client_uri", "logo_uri", "tos_uri", "policy_uri", "software_id",
            "software_version");
    /** Metadata this server does not support: asking for it is refused rather than ignored. */
    static final List<String> UNSUPPORTED = List.of("sector_identifier_uri",
            "initiate_login_uri", "software_statement", "id_token_encrypted_response_alg", "userinfo_encrypted_response_alg",
            "request_object_encryption_alg");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The scopes of a code-flow registration that names none. */
    static final String DEFAULT_OPENID_SCOPES = "openid profile email";

    private ClientMetadata() {
    }

    /** A registration split: the application's fields, and the rest of its metadata to keep. */
    public record Parsed(ObjectNode application, ObjectNode kept) {
    }

    public static Parsed parse(JsonNode metadata) {
        if (metadata == null || !metadata.isObject()) {
            throw invalid("The client metadata must be a JSON object.");
        }
        for (String name : UNSUPPORTED) {
            if (metadata.has(name) && !metadata.get(name).isNull()) {
                throw invalid(name + " is not supported by this server.");
            }
        }
        if (metadata.hasNonNull("subject_type") && !"public".equals(metadata.get("subject_type").asText())) {
            throw invalid("subject_type must be public.");
        }
        String method = text(metadata, "token_endpoint_auth_method", "client_secret_basic");
        if (!AUTH_METHODS.contains(method)) {
            throw invalid("token_endpoint_auth_method must be one of " + String.join(", ", AUTH_METHODS) + ".");
        }
        List<String> grants = strings(metadata, "grant_types", List.of("authorization_code"));
        if (grants.isEmpty() || !GrantTypes.SUPPORTED.containsAll(grants)) {
            throw invalid("grant_types may hold " + String.join(", ", GrantTypes.SUPPORTED) + ".");
        }
        boolean confidential = !method.equals("none");
        RegisteredKeys keys = RegisteredKeys.parse(metadata, method);
        RelyingPartyMetadata relyingParty = RelyingPartyMetadata.parse(metadata);
        if (!confidential && grants.contains("client_credentials")) {
            throw invalid("client_credentials needs a confidential client (a token_endpoint_auth_method other than none).");
        }
        List<String> responseTypes = strings(metadata, "response_types",
                grants.contains("authorization_code") ? List.of("code") : List.of());
        if (!List.of("code").containsAll(responseTypes) || responseTypes.contains("code") != grants.contains("authorization_code")) {
            throw invalid("response_types must be [\"code\"] with the authorization_code grant, and empty without it.");
        }

        ObjectNode application = JSON.createObjectNode();
        application.put("name", text(metadata, "client_name", "Registered client"));
        if (metadata.has("redirect_uris")) {
            application.set("redirect_uris", confidential ? withoutPrivateUse(metadata.get("redirect_uris"), grants)
                    : metadata.get("redirect_uris"));
        } else if (grants.contains("authorization_code")) {
            throw new OAuthException(OAuthError.INVALID_REDIRECT_URI, "redirect_uris is required for authorization_code.");
        } else {
            // A device-flow or client_credentials tool has no address to return to.
            application.set("redirect_uris", JSON.createArrayNode().add(RedirectUris.OUT_OF_BAND));
        }
        // RFC 7591 §2 lets the server choose the scopes of a registration that names none: OpenID
        // Connect's registration has no scope member, so a relying party gets the sign-in's own three
        // (each still the person's consent to give), and offline_access when it registered the
        // refresh_token grant (Core §11: the consent page says what it means); any other client none.
        String defaultScopes = !grants.contains("authorization_code") ? ""
                : grants.contains("refresh_token") ? DEFAULT_OPENID_SCOPES + " offline_access" : DEFAULT_OPENID_SCOPES;
        application.put("scopes", text(metadata, "scope", defaultScopes));
        application.put("confidential", confidential);
        application.put("password_grant", grants.contains("password"));
        if (grants.contains(GrantTypes.TOKEN_EXCHANGE)) {
            application.put("token_exchange", true);
        }
        for (String field : List.of("post_logout_redirect_uris", "id_token_signed_response_alg",
                "require_pushed_authorization_requests", "dpop_bound_access_tokens", "access_token_format")) {
            if (metadata.has(field)) {
                application.set(field, metadata.get(field));
            }
        }
        ObjectNode kept = JSON.createObjectNode();
        kept.put("token_endpoint_auth_method", method);
        if (keys.jwks() != null) {
            kept.set("jwks", metadata.get("jwks"));
        }
        if (keys.jwksUri() != null) {
            kept.put("jwks_uri", keys.jwksUri());
        }
        if (keys.signingAlg() != null) {
            kept.put("token_endpoint_auth_signing_alg", keys.signingAlg());
        }
        if (keys.requestObjectAlg() != null) {
            kept.put("request_object_signing_alg", keys.requestObjectAlg());
        }
        relyingParty.keep(kept);
        ArrayNode grantArray = kept.putArray("grant_types");
        grants.forEach(grantArray::add);
        for (String name : DESCRIPTIVE) {
            if (metadata.hasNonNull(name)) {
                String value = text(metadata, name, null);
                if (value.length() > 2000 || (name.endsWith("_uri") && RedirectUris.problem(value) != null)) {
                    throw invalid(name + " must be an absolute URI of at most 2000 characters.");
                }
                kept.put(name, value);
            }
        }
        if (metadata.has("contacts")) {
            List<String> contacts = strings(metadata, "contacts", List.of());
            if (contacts.size() > 10 || contacts.stream().anyMatch(c -> c.length() > 254)) {
                throw invalid("contacts: at most 10 addresses.");
            }
            ArrayNode array = kept.putArray("contacts");
            contacts.forEach(array::add);
        }
        return new Parsed(application, kept);
    }

    /**
     * A confidential client never gets a private-use URI scheme (RFC 8252 §7.1 is for public native
     * apps: any app on the device may claim the scheme). Native tools that register a secret of their
     * own (oidc-agent) list one beside loopback addresses, so a registration is not refused for it:
     * RFC 7591 §3.2.1 lets the server register other values than those asked for, and the answer
     * lists the redirect URIs registered. When none would be left, the request stays as it was, to
     * be refused with its reason; a client without the code flow then returns nowhere
     * ({@link RedirectUris#OUT_OF_BAND}), as one that sent no redirect_uris.
     */
    static JsonNode withoutPrivateUse(JsonNode uris, List<String> grants) {
        if (!uris.isArray()) {
            return uris;
        }
        ArrayNode kept = JSON.createArrayNode();
        for (JsonNode uri : uris) {
            if (!uri.isTextual() || !RedirectUris.isPrivateUse(uri.asText())) {
                kept.add(uri);
            }
        }
        if (!kept.isEmpty() || uris.isEmpty()) {
            return kept;
        }
        return grants.contains("authorization_code") ? uris : JSON.createArrayNode().add(RedirectUris.OUT_OF_BAND);
    }

    /** The application's own validation's answer, as RFC 7591 §3.2.2 errors. */
    public static OAuthException refusal(ProblemException problem) {
        List<Problem.FieldError> errors = problem.errors() == null ? List.of() : problem.errors();
        String description = errors.isEmpty() ? problem.detail()
                : errors.stream().map(e -> e.field() + " " + e.message()).collect(Collectors.joining("; "));
        boolean redirect = errors.stream().anyMatch(e -> e.field().startsWith("redirect_uris"));
        return new OAuthException(redirect ? OAuthError.INVALID_REDIRECT_URI : OAuthError.INVALID_CLIENT_METADATA, description);
    }

    /**
     * Whether the client may use this grant: an application made through /applications may use
     * any the token endpoint allows it; a registered client only those it registered.
     */
    public static boolean allowsGrant(ApplicationRow app, String grantType) {
        if (app == null || app.registrationMetadata() == null) {
            return true;
        }
        for (JsonNode grant : keptOf(app).path("grant_types")) {
            if (grant.asText().equals(grantType)) {
                return true;
            }
        }
        return false;
    }

    static JsonNode keptOf(ApplicationRow app) {
        try {
            return app.registrationMetadata() == null ? JSON.createObjectNode() : JSON.readTree(app.registrationMetadata());
        } catch (java.io.IOException e) {
            throw new IllegalStateException("stored registration metadata cannot be read", e);
        }
    }

    static String text(JsonNode metadata, String name, String otherwise) {
        JsonNode value = metadata.get(name);
        if (value == null || value.isNull()) {
            return otherwise;
        }
        if (!value.isTextual()) {
            throw invalid(name + " must be a string.");
        }
        return value.asText();
    }

    private static List<String> strings(JsonNode metadata, String name, List<String> otherwise) {
        JsonNode value = metadata.get(name);
        if (value == null || value.isNull()) {
            return otherwise;
        }
        if (!value.isArray() || value.size() > 20) {
            throw invalid(name + " must be an array of strings.");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode item : value) {
            if (!item.isTextual()) {
                throw invalid(name + " must be an array of strings.");
            }
            out.add(item.asText());
        }
        return out;
    }

    static OAuthException invalid(String description) {
        return new OAuthException(OAuthError.INVALID_CLIENT_METADATA, description);
    }
}
