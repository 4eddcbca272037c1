package org.ziggurat.gateway.identity;

/**
 * What an active introspection answer (RFC 7662) lets through, apart from the OIDC machinery
 * that fetched it: only an access token authorizes a call, whatever style it came in (RFC 7662
 * reports refresh tokens as active too, and a long-lived refresh token used as a bearer token
 * would outlive its access token's revocation and skip reuse detection); a person is a numeric
 * subject with a username, anything else a client acting for itself.
 */
public final class IntrospectionAnswers {

    private IntrospectionAnswers() {
    }

    /**
     * Whether the token is an access token: {@code token_type} {@code bearer}, in any case, or
     * {@code DPoP} (RFC 9449 §6.2: bound to a key, whose proof the call must carry).
     */
    static boolean authorizes(String tokenType) {
        return tokenType != null && (tokenType.equalsIgnoreCase("bearer") || tokenType.equalsIgnoreCase("dpop"));
    }

    /** The thumbprint of the key a token is bound to (RFC 9449 {@code cnf.jkt}); null for a bearer token. */
    static String boundKey(io.quarkus.oidc.TokenIntrospection introspection) {
        jakarta.json.JsonObject cnf = introspection.contains("cnf") ? introspection.getObject("cnf") : null;
        return cnf != null && cnf.get("jkt") instanceof jakarta.json.JsonString jkt ? jkt.getString() : null;
    }

    /** The introspection member (auth-service's, for the gateway alone) that names the token as the revocation feed does. */
    static final String REVOCATION_REFERENCE = "revocation_ref";

    /** How the revocation feed names the token: a short hex string; null when the answer does not say. */
    static String revocationReference(io.quarkus.oidc.TokenIntrospection introspection) {
        Object reference = introspection.contains(REVOCATION_REFERENCE)
                ? introspection.getJsonObject().get(REVOCATION_REFERENCE) : null;
        return reference instanceof jakarta.json.JsonString s && s.getString().matches("[0-9a-f]{1,64}") ? s.getString() : null;
    }

    /** The audience an introspection answer states (RFC 8707): a string or a list; null when it states none. */
    static java.util.List<String> audience(io.quarkus.oidc.TokenIntrospection introspection) {
        Object aud = introspection.contains("aud") ? introspection.getJsonObject().get("aud") : null;
        if (aud instanceof jakarta.json.JsonString one) {
            return java.util.List.of(one.getString());
        }
        if (aud instanceof jakarta.json.JsonArray many) {
            java.util.List<String> values = new java.util.ArrayList<>();
            many.forEach(v -> values.add(v instanceof jakarta.json.JsonString s ? s.getString() : v.toString()));
            return java.util.List.copyOf(values);
        }
        return null;
    }

    /** Whether a token of this audience (null: none stated, the platform's) is meant for {@code resource}. */
    public static boolean meantFor(java.util.List<String> audience, String resource, String platform) {
        return audience == null ? resource.equals(platform) : audience.contains(resource);
    }

    /** The person the token speaks for, or null for a client acting for itself (client_credentials). */
    static Long person(String subject, String username) {
        if (subject == null || username == null || !subject.matches("[1-9][0-9]{0,18}")) {
            return null;
        }
        return Long.parseLong(subject);
    }

    /**
     * Until when (epoch seconds) the resolved identity may be reused: never past the token's own
     * expiry ({@code exp}, 0 when introspection gave none), nor past the platform token signed for
     * it.
     */
    static long usableUntil(long tokenExpiresAt, long platformTokenUsableUntil) {
        return tokenExpiresAt <= 0 ? platformTokenUsableUntil : Math.min(tokenExpiresAt, platformTokenUsableUntil);
    }
}
