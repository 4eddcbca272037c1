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

    /**
     * A private-use URI scheme in reverse-domain form (RFC 8252 §7.1), such as
     * {@code edu.kit.data.oidc-agent:/redirect}: at least two dot-separated labels of letters,
     * digits and hyphens. The schemes a browser gives a meaning of its own never are one.
     */
    private static final java.util.regex.Pattern PRIVATE_USE_SCHEME =
            java.util.regex.Pattern.compile("[a-z][a-z0-9-]*(\\.[a-z0-9][a-z0-9-]*)+");

    /** Why the URI may not be registered as a web client's, or null when it may. */
    public static String problem(String uri) {
        return problem(uri, false);
    }

    /**
     * Why the URI may not be registered, or null when it may; {@code nativeApp}: a public client's
     * redirect URI, which may also use a private-use scheme (RFC 8252 §7.1).
     */
    public static String problem(String uri, boolean nativeApp) {
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
        if (parsed.isAbsolute() && isPrivateUse(uri)) {
            if (!nativeApp) {
                return "a private-use URI scheme is for public clients (native apps, RFC 8252)";
            }
            return parsed.getRawFragment() != null ? "must not have a fragment"
                    : parsed.getRawAuthority() != null ? "must be scheme:/path (RFC 8252 section 7.1), without a host" : null;
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

    /** Whether the URI's scheme is a private-use one in reverse-domain form (RFC 8252 §7.1). */
    public static boolean isPrivateUse(String uri) {
        int colon = uri == null ? -1 : uri.indexOf(':');
        return colon > 0 && PRIVATE_USE_SCHEME.matcher(uri.substring(0, colon).toLowerCase()).matches();
    }

    /**
     * Whether a request's redirect URI is one the client registered: exactly, or (RFC 8252 §7.3)
     * a loopback IP literal redirect with another port, since a native app listens on whatever
     * port its system gives it.
     */
    public static boolean registered(java.util.List<String> registered, String requested) {
        if (requested == null) {
            return false;
        }
        if (registered.contains(requested)) {
            return true;
        }
        URI asked = loopbackLiteral(requested);
        return asked != null && registered.stream().map(RedirectUris::loopbackLiteral).anyMatch(known -> known != null
                && known.getHost().equals(asked.getHost()) && java.util.Objects.equals(known.getRawPath(), asked.getRawPath())
                && java.util.Objects.equals(known.getRawQuery(), asked.getRawQuery()));
    }

    /** An {@code http} redirect URI on 127.0.0.1 or [::1] (not the name localhost: RFC 8252 §8.3), else null. */
    private static URI loopbackLiteral(String uri) {
        try {
            URI parsed = new URI(uri);
            return "http".equals(parsed.getScheme()) && parsed.getRawUserInfo() == null && parsed.getRawFragment() == null
                    && ("127.0.0.1".equals(parsed.getHost()) || "[::1]".equals(parsed.getHost())) ? parsed : null;
        } catch (URISyntaxException e) {
            return null;
        }
    }
}
