package org.ziggurat.auth.oauth;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Set;

/**
 * Which redirect URIs an application may register (RFC 9700 §2.1, §4.1): absolute, no fragment,
 * {@code https}, or {@code http} on a loopback host, or the out-of-band value. Matching is exact.
 */
public final class RedirectUris {

    public static final String OUT_OF_BAND = "urn:ietf:wg:oauth:2.0:oob";
    private static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

    private RedirectUris() {
    }

    /** Why the URI may not be registered, or null when it may. */
    public static String problem(String uri) {
        if (uri == null || uri.isBlank()) {
            return "must not be empty";
        }
        if (uri.equals(OUT_OF_BAND)) {
            return null;
        }
        if (uri.length() > 2000 || uri.chars().anyMatch(c -> c <= ' ' || c == 127)) {
            return "must be at most 2000 characters without spaces or control characters";
        }
        URI parsed;
        try {
            parsed = new URI(uri);
        } catch (URISyntaxException e) {
            return "is not a valid URI";
        }
        if (!parsed.isAbsolute() || parsed.getHost() == null) {
            return "must be an absolute URI with a host";
        }
        if (parsed.getRawFragment() != null) {
            return "must not have a fragment";
        }
        if (parsed.getRawUserInfo() != null) {
            return "must not carry user information";
        }
        String scheme = parsed.getScheme().toLowerCase();
        if (scheme.equals("https")) {
            return null;
        }
        if (scheme.equals("http") && LOOPBACK.contains(parsed.getHost().toLowerCase())) {
            return null;
        }
        return "must use https (or http on a loopback address)";
    }

    public static boolean isOutOfBand(String uri) {
        return OUT_OF_BAND.equals(uri);
    }
}
