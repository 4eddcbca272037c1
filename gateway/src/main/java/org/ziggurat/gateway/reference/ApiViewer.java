package org.ziggurat.gateway.reference;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code /docs}: the API reference in Swagger UI, a maintained viewer, with every file it needs
 * served from here (the {@code org.webjars:swagger-ui} jar and our start script): the page makes
 * no request to another host. "Try it out" sends the person's own token, pasted under
 * "Authorize" (or obtained through the OAuth flows), to this API.
 */
final class ApiViewer {

    static final String PATH = "/docs";
    private static final String WEBJAR = "META-INF/resources/webjars/swagger-ui/" + webjarVersion() + "/";
    /** File name under /docs/ to where it is on the class path, and its media type. */
    private static final Map<String, String[]> FILES = Map.of(
            "swagger-ui.css", new String[] {WEBJAR + "swagger-ui.css", "text/css; charset=UTF-8"},
            "swagger-ui-bundle.js", new String[] {WEBJAR + "swagger-ui-bundle.js", "text/javascript; charset=UTF-8"},
            "oauth2-redirect.html", new String[] {WEBJAR + "oauth2-redirect.html", "text/html; charset=UTF-8"},
            "oauth2-redirect.js", new String[] {WEBJAR + "oauth2-redirect.js", "text/javascript; charset=UTF-8"},
            "favicon-32x32.png", new String[] {WEBJAR + "favicon-32x32.png", "image/png"},
            "viewer.js", new String[] {"api-viewer/viewer.js", "text/javascript; charset=UTF-8"});
    /**
     * Scripts and styles from this origin only. Swagger UI sets style attributes (hence
     * 'unsafe-inline' for styles alone) and shows schemas' images as data: URLs; "Try it out"
     * calls this API (connect-src 'self').
     */
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            + "img-src 'self' data:; connect-src 'self'; font-src 'self' data:; base-uri 'none'; form-action 'self'; "
            + "frame-ancestors 'none'";

    private final Map<String, Buffer> loaded = new ConcurrentHashMap<>();
    private final String basePath;

    /** {@code basePath}: the public base URL's path, such as {@code /api}. */
    ApiViewer(String basePath) {
        this.basePath = basePath.endsWith("/") ? basePath.substring(0, basePath.length() - 1) : basePath;
    }

    boolean handles(String path) {
        return path.equals(PATH) || path.startsWith(PATH + "/") && FILES.containsKey(path.substring(PATH.length() + 1));
    }

    void serve(RoutingContext ctx, String path) {
        var response = ctx.response().putHeader("X-Content-Type-Options", "nosniff");
        if (path.equals(PATH)) {
            response.putHeader("Content-Type", "text/html; charset=UTF-8").putHeader("Content-Security-Policy", CSP)
                    .putHeader("Cache-Control", "no-cache").end(page());
            return;
        }
        String name = path.substring(PATH.length() + 1);
        String[] file = FILES.get(name);
        Buffer body = loaded.computeIfAbsent(name, n -> read(file[0]));
        response.putHeader("Content-Type", file[1]).putHeader("Cache-Control", "public, max-age=86400");
        if (name.endsWith(".html")) {
            response.putHeader("Content-Security-Policy", CSP);
        }
        response.end(body);
    }

    private String page() {
        String docs = basePath + PATH + "/";
        return "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Ziggurat API reference</title>"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                + "<link rel=\"stylesheet\" href=\"" + docs + "swagger-ui.css\">"
                + "<link rel=\"icon\" type=\"image/png\" href=\"" + docs + "favicon-32x32.png\"></head><body>"
                + "<div id=\"swagger-ui\" data-openapi=\"" + basePath + "/openapi\" data-oauth2-redirect=\"" + docs
                + "oauth2-redirect.html\"></div>"
                + "<script src=\"" + docs + "swagger-ui-bundle.js\"></script>"
                + "<script src=\"" + docs + "viewer.js\"></script></body></html>";
    }

    /** The version of the swagger-ui jar on the class path, as its Maven metadata states it. */
    private static String webjarVersion() {
        Properties pom = new Properties();
        try (InputStream in = ApiViewer.class.getClassLoader()
                .getResourceAsStream("META-INF/maven/org.webjars/swagger-ui/pom.properties")) {
            if (in == null) {
                throw new IllegalStateException("org.webjars:swagger-ui is not on the class path");
            }
            pom.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pom.getProperty("version");
    }

    private static Buffer read(String resource) {
        try (InputStream in = ApiViewer.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing from the class path: " + resource);
            }
            return Buffer.buffer(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
