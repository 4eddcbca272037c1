package org.ziggurat.auth.oauth;

/** The access token of a request: {@code Authorization: Bearer …} or {@code Authorization: token …}. */
public final class BearerTokens {

    private BearerTokens() {
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
