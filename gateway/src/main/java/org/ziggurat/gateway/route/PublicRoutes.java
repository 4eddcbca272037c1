package org.ziggurat.gateway.route;

import java.util.Optional;
import java.util.Set;

/**
 * The public path space and which service owns each part of it (docs/architecture.md, "Modules").
 * Paths may carry a version prefix ({@code /v1}, {@code /api}, {@code /api/v1}), which is
 * removed before the request goes upstream. The path given here must already be normalised
 * (no dot segments, no doubled slashes), so that what is routed is what the service receives.
 */
public final class PublicRoutes {

    public static final String AUTH = "auth-service";
    public static final String DIRECTORY = "directory-service";
    public static final String VOCAB = "vocab-service";
    public static final String EVENTS = "events-service";

    /** Never forwarded: service-to-service endpoints and the services' own management endpoints. */
    private static final Set<String> CLOSED = Set.of("internal", "q");

    /** Where a public request goes: the owning service and the path it has there. */
    public record Route(String service, String path) {

        /**
         * The path as a template of few values, for the request metrics' {@code uri} tag: names
         * of people, namespaces, concepts and tokens are the caller's to choose, and a series per
         * path grows without bound (it did: one per username).
         */
        public String template() {
            String[] segments = path.substring(1).split("/", -1);
            String tail = segments.length > switch (service) {
                case VOCAB -> 2;
                case EVENTS -> 5;
                default -> 1;
            } ? "/**" : "";
            if (service.equals(EVENTS) && segments[0].equals("audit")) {
                return "/audit" + (segments.length > 1 ? "/**" : "");
            }
            if (service.equals(EVENTS) && segments.length >= 2 && segments[1].equals("webhooks")) {
                return "/{namespace}/webhooks" + (segments.length > 2 ? "/**" : "");
            }
            if (service.equals(EVENTS) && segments.length >= 4 && segments[3].equals("webhooks")) {
                return "/{namespace}/repositories/{repository}/webhooks" + (segments.length > 4 ? "/**" : "");
            }
            return switch (service) {
                case VOCAB -> "/{namespace}/vocab" + tail;
                case EVENTS -> "/{namespace}/repositories/{repository}/data/events" + tail;
                default -> "/" + segments[0] + tail;
            };
        }
    }

    /** The template of a request no service owns. */
    public static final String UNROUTED_TEMPLATE = "/{unrouted}";

    private PublicRoutes() {
    }

    public static Optional<Route> resolve(String normalizedPath) {
        if (normalizedPath == null || !normalizedPath.startsWith("/")) {
            return Optional.empty();
        }
        String path = stripVersion(normalizedPath);
        String[] segments = path.substring(1).split("/", -1);
        String first = segments[0];
        if (first.isEmpty() || CLOSED.contains(first)) {
            return Optional.empty();
        }
        String service = switch (first) {
            case "oauth", ".well-known", "applications", "authorizations", "account", "identity-providers", "resource-servers" -> AUTH;
            case "user", "people", "organizations" -> DIRECTORY;
            case "audit" -> EVENTS;
            default -> namespaced(segments);
        };
        return Optional.ofNullable(service).map(s -> new Route(s, path));
    }

    /**
     * {@code /:namespace/vocab/...}, {@code /:namespace/repositories/:repo/data/events...}, and the
     * webhooks: {@code /:namespace/webhooks...} and {@code /:namespace/repositories/:repo/webhooks...}.
     */
    private static String namespaced(String[] segments) {
        if (segments.length >= 2 && segments[1].equals("vocab")) {
            return VOCAB;
        }
        if (segments.length >= 2 && segments[1].equals("webhooks")
                || segments.length >= 4 && segments[1].equals("repositories") && !segments[2].isEmpty()
                && segments[3].equals("webhooks")) {
            return EVENTS;
        }
        if (segments.length >= 5 && segments[1].equals("repositories") && !segments[2].isEmpty()
                && segments[3].equals("data") && segments[4].equals("events")) {
            return EVENTS;
        }
        return null;
    }

    /**
     * The OAuth endpoints and metadata, and the account pages: auth-service reads credentials
     * there itself (a client's, or the sign-in session's cookie).
     */
    public static boolean isOAuth(String upstreamPath) {
        return upstreamPath.equals("/oauth") || upstreamPath.startsWith("/oauth/") || upstreamPath.startsWith("/.well-known/")
                || upstreamPath.equals("/account") || upstreamPath.startsWith("/account/");
    }

    /** The pages of the authorization server (authorization, logout, device, account): no CORS there. */
    public static boolean isAuthorizationPage(String upstreamPath) {
        return upstreamPath.equals("/oauth/authorize") || upstreamPath.startsWith("/oauth/authorize/")
                || upstreamPath.equals("/oauth/logout") || upstreamPath.equals("/oauth/device")
                || upstreamPath.equals("/account") || upstreamPath.startsWith("/account/");
    }

    public static String stripVersion(String path) {
        for (String prefix : new String[] {"/api/v1", "/api", "/v1"}) {
            if (path.equals(prefix)) {
                return "/";
            }
            if (path.startsWith(prefix + "/")) {
                return path.substring(prefix.length());
            }
        }
        return path;
    }
}
