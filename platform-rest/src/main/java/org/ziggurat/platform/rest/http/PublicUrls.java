package org.ziggurat.platform.rest.http;

import jakarta.ws.rs.core.UriInfo;

/**
 * Absolute public URLs for {@code url} and {@code html_url}. The API base comes from the request
 * as the gateway forwarded it (its path contains {@code /api}); the web base is the platform's
 * front end: the same origin without the {@code /api} segment.
 */
public record PublicUrls(String apiBase, String webBase) {

    public static PublicUrls of(UriInfo uri) {
        return ofApiBase(apiBase(uri));
    }

    /** From the API's base alone, as a request once showed it (work done later, without a request). */
    public static PublicUrls ofApiBase(String apiBase) {
        String api = trimSlash(apiBase);
        String web = api.endsWith("/api") ? api.substring(0, api.length() - 4) : api;
        return new PublicUrls(api, web);
    }

    /** {@code apiBase + path}; the path starts with a slash. */
    public String api(String path) {
        return apiBase + path;
    }

    public String web(String path) {
        return webBase + path;
    }

    /**
     * The request's absolute path minus the resource path. (The JAX-RS base URI leaves out
     * {@code X-Forwarded-Prefix}; the absolute request path keeps it.)
     */
    private static String apiBase(UriInfo uri) {
        String absolute = uri.getAbsolutePath().toString();
        String path = uri.getPath();
        if (path != null && !path.isEmpty() && !path.equals("/") && absolute.endsWith(path)) {
            return absolute.substring(0, absolute.length() - path.length());
        }
        return uri.getBaseUri().toString();
    }

    private static String trimSlash(String s) {
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }
}
