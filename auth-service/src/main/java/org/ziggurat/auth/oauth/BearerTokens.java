package org.ziggurat.auth.oauth;

/** The access token of a request: {@code Authorization: Bearer …} or {@code Authorization: token …}. */
public final class BearerTokens {

    private BearerTokens() {
    }

    /** The token of {@code Authorization: DPoP …} (RFC 9449 §7.1); null for any other scheme. */
    public static String dpopFrom(String authorization) {
        if (authorization == null) {
            return null;
        }
        String value = authorization.trim();
        if (!value.regionMatches(true, 0, "DPoP ", 0, 5)) {
            return null;
        }
        String token = value.substring(5).trim();
        return token.isEmpty() ? null : token;
    }

    public static String from(String authorization) {
        if (authorization == null) {
            return null;
        }
        String value = authorization.trim();
        for (String scheme : new String[] {"Bearer ", "token "}) {
            if (value.regionMatches(true, 0, scheme, 0, scheme.length())) {
                String token = value.substring(scheme.length()).trim();
                return token.isEmpty() ? null : token;
            }
        }
        return null;
    }
}
