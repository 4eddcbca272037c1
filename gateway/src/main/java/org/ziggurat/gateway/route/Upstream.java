package org.ziggurat.gateway.route;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;

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
}
