package org.ziggurat.gateway.route;

import org.ziggurat.gateway.GatewayConfig;

import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.util.List;

/**
 * CORS for browser applications on the API paths and the token endpoints. Not on the
 * authorization pages, which a browser visits, never fetches. Bearer tokens, no cookies: no
 * credentials mode.
 */
@Singleton // called on every request: no client proxy in between (GatewayProxy)
public class Cors {

    static final String ALLOWED_HEADERS = "Authorization, Content-Type, Accept, If-None-Match, If-Match, "
            + "Idempotency-Key, X-Request-Id, Last-Event-ID, DPoP";
    static final String EXPOSED_HEADERS = "Link, X-Total-Count, ETag, Location, Retry-After, X-Request-Id, "
            + "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, DPoP-Nonce, WWW-Authenticate";
    static final String METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

    private final List<String> origins;
    private final int maxAge;

    @Inject
    public Cors(GatewayConfig config) {
        this.origins = config.cors().allowedOrigins();
        this.maxAge = config.cors().maxAgeSeconds();
    }

    /** Adds CORS headers when the request comes from an allowed origin; answers a preflight. True when it applied. */
    public boolean apply(RoutingContext ctx, PublicRoutes.Route route) {
        String origin = ctx.request().getHeader("Origin");
        if (origin == null || PublicRoutes.isAuthorizationPage(route.path())) {
            return false;
        }
        boolean any = origins.contains("*");
        if (!any && !origins.contains(origin)) {
            return false;
        }
        MultiMap out = ctx.response().headers();
        out.set("Access-Control-Allow-Origin", any ? "*" : origin);
        if (!any) {
            out.add("Vary", "Origin");
        }
        out.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
        if (ctx.request().method() == HttpMethod.OPTIONS && ctx.request().getHeader("Access-Control-Request-Method") != null) {
            out.set("Access-Control-Allow-Methods", METHODS);
            out.set("Access-Control-Allow-Headers", ALLOWED_HEADERS);
            out.set("Access-Control-Max-Age", Integer.toString(maxAge));
            ctx.response().setStatusCode(204).end();
        } else if (ctx.request().method() == HttpMethod.OPTIONS) {
            return false;
        }
        return true;
    }
}
