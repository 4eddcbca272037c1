package org.ziggurat.auth.pages;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.platform.rest.http.PublicUrls;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Where the pages' forms, assets and redirects point, as the browser reached the gateway. */
final class PagePaths {

    private PagePaths() {
    }

    static String withQuery(String base, Map<String, String> params) {
        StringBuilder out = new StringBuilder(base);
        char separator = base.contains("?") ? '&' : '?';
        for (Map.Entry<String, String> e : params.entrySet()) {
            out.append(separator).append(e.getKey()).append('=').append(URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
            separator = '&';
        }
        return out.toString();
    }

    static String assets(UriInfo uri) {
        return apiPath(uri, "/oauth/assets");
    }

    /**
     * A public path without scheme and host, for the pages' forms and the browser's redirects
     * (set as the Location header itself: JAX-RS's {@code location()} would resolve it against
     * the base URI, with the gateway's public host and its prefix twice). They then stay on
     * whatever host name reached the gateway (localhost, 127.0.0.1, a LAN address), where the
     * session cookie and the CSP's {@code form-action 'self'} are.
     */
    static String apiPath(UriInfo uri, String path) {
        return URI.create(PublicUrls.of(uri).api(path)).getRawPath();
    }

    /** A 303 to {@code location} (a path of {@link #apiPath}, set as it is), never cached. */
    static Response.ResponseBuilder seeOther(String location) {
        return Response.status(303).header("Location", location).header("Cache-Control", "no-store");
    }

    static boolean secure(UriInfo uri) {
        return "https".equalsIgnoreCase(uri.getBaseUri().getScheme());
    }
}
