package org.ziggurat.gateway.route;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;
import org.ziggurat.gateway.identity.CallerAddress;
import org.ziggurat.platform.http.BodyLimits;

/**
 * What the route decided about one request, for the interceptor that sends it on: a local of
 * the request's Vert.x context, read on that context (HttpProxy calls the interceptor at once).
 * The headers are set on the proxy's copy of the request, which takes them without a second
 * validation pass (the platform token alone is 700 characters). {@code accessToken} and
 * {@code ctx}: the caller's token, kept to watch an event stream it opens (null when none).
 * {@code body}: a body the gateway read itself (a token request's form), sent in place of the
 * request's stream.
 */
public record Upstream(String uri, boolean passAuthorization, String platformToken, String clientAddress, String accessToken,
        RoutingContext ctx, Buffer body) {

    /**
     * The request sent on to the route's service: the route's path with the query as given, the
     * caller's address, and the body the gateway read ({@code body}), or else a chunked one that
     * BodyLimits read and counted, which goes on whole, with its length.
     */
    public static Upstream of(RoutingContext ctx, PublicRoutes.Route route, String query, boolean passAuthorization,
            String platformToken, String accessToken, Buffer body) {
        Buffer sent = body != null ? body : ctx.get(BodyLimits.READ_BODY);
        return new Upstream(query == null || query.isEmpty() ? route.path() : route.path() + "?" + query,
                passAuthorization, platformToken, CallerAddress.of(ctx), accessToken, ctx, sent);
    }
}
