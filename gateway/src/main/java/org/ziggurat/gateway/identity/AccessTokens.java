package org.ziggurat.gateway.identity;

import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.QueryStringEncoder;

import java.util.List;
import java.util.Map;

/**
 * Where a caller's access token is (spec §5): {@code Authorization: token …}, {@code Bearer …}, or
 * {@code ?access_token=}; or, for a token bound to a key, {@code Authorization: DPoP …} (RFC 9449 §7.1).
 */
public final class AccessTokens {

    public static final String QUERY_PARAMETER = "access_token";
    /** The longest token taken: a JWT access token (RFC 9068) with a few audiences and an act claim fits. */
    public static final int MAX_LENGTH = 4096;

    private AccessTokens() {
    }

    /** The result of looking: the token (or null), or why the request is malformed; {@code dpop}: sent as DPoP. */
    public record Found(String token, String problem, boolean dpop) {

        public Found(String token, String problem) {
            this(token, problem, false);
        }
    }

    public static Found find(String authorization, String query) {
        String fromHeader = null;
        boolean dpop = false;
        if (authorization != null && !authorization.isBlank()) {
            String value = authorization.trim();
            int space = value.indexOf(' ');
            String scheme = space < 0 ? value : value.substring(0, space);
            dpop = scheme.equalsIgnoreCase("dpop");
            if (!scheme.equalsIgnoreCase("bearer") && !scheme.equalsIgnoreCase("token") && !dpop) {
                return new Found(null, "The Authorization header must be 'Bearer <token>', 'token <token>' or 'DPoP <token>'.");
            }
            fromHeader = space < 0 ? "" : value.substring(space + 1).trim();
            if (fromHeader.isEmpty() || fromHeader.length() > AccessTokens.MAX_LENGTH) {
                return new Found(null, "The Authorization header carries no usable token.");
            }
        }
        List<String> fromQuery = query == null ? null
                : new QueryStringDecoder(query, false).parameters().get(QUERY_PARAMETER);
        if (fromQuery != null && (fromQuery.size() > 1 || (fromHeader != null))) {
            return new Found(null, "Send the access token once: in the Authorization header or as access_token.");
        }
        if (fromQuery != null) {
            String token = fromQuery.get(0);
            return token.isEmpty() || token.length() > AccessTokens.MAX_LENGTH ? new Found(null, "The access_token parameter is empty or too long.")
                    : new Found(token, null);
        }
        return new Found(fromHeader, null, dpop);
    }

    /** The query without {@code access_token}, so the token never travels further (nor into logs). */
    public static String withoutToken(String query) {
        if (query == null || !query.contains(QUERY_PARAMETER)) {
            return query;
        }
        QueryStringEncoder encoder = new QueryStringEncoder("");
        for (Map.Entry<String, List<String>> e : new QueryStringDecoder(query, false).parameters().entrySet()) {
            if (!e.getKey().equals(QUERY_PARAMETER)) {
                e.getValue().forEach(v -> encoder.addParam(e.getKey(), v));
            }
        }
        String encoded = encoder.toString();
        return encoded.startsWith("?") ? (encoded.length() == 1 ? null : encoded.substring(1)) : (encoded.isEmpty() ? null : encoded);
    }
}
