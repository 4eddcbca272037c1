package org.ziggurat.gateway.identity;

/**
 * What an active introspection answer (RFC 7662) lets through, apart from the OIDC machinery
 * that fetched it: only an access token authorizes a call, whatever style it came in (RFC 7662
 * reports refresh tokens as active too, and a long-lived refresh token used as a bearer token
 * would outlive its access token's revocation and skip reuse detection); a person is a numeric
 * subject with a username, anything else a client acting for itself.
 */
final class IntrospectionAnswers {

    private IntrospectionAnswers() {
    }

    /** Whether the token is an access token: {@code token_type} {@code bearer}, in any case. */
    static boolean authorizes(String tokenType) {
        return tokenType != null && tokenType.equalsIgnoreCase("bearer");
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
