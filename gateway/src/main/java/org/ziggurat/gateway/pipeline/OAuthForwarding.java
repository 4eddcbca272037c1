package org.ziggurat.gateway.pipeline;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Singleton;
import org.ziggurat.gateway.limits.RateLimits;
import org.ziggurat.gateway.limits.Refusals;
import org.ziggurat.gateway.limits.TokenEndpointCallers;
import org.ziggurat.gateway.route.PublicRoutes;
import org.ziggurat.gateway.route.Upstream;
import org.ziggurat.gateway.route.UpstreamProxies;
import org.ziggurat.platform.http.BodyLimits;

/**
 * The pipeline's way for /oauth/**: auth-service reads the caller's credentials itself, so they
 * pass through untouched. The token endpoint, device authorization and pushed requests are
 * limited per address and per client (the client named by HTTP Basic, or in a small form the
 * gateway reads for it and passes on as it came), each endpoint in windows of its own.
 */
@Singleton // called on every request to /oauth/**: no client proxy in between
public class OAuthForwarding {

    private final RateLimits limits;
    private final Refusals refusals;
    private final UpstreamProxies upstreams;

    public OAuthForwarding(RateLimits limits, Refusals refusals, UpstreamProxies upstreams) {
        this.limits = limits;
        this.refusals = refusals;
        this.upstreams = upstreams;
    }

    void forward(RoutingContext ctx, PublicRoutes.Route route, String callerKey) {
        HttpServerRequest request = ctx.request();
        if (!limits.enabled() || !TokenEndpointCallers.limited(route.path())) {
            send(ctx, route, null);
            return;
        }
        if (refusals.limited(ctx, limits.takeForOAuthEndpoint(route.path(), callerKey))) {
            return;
        }
        String basic = TokenEndpointCallers.basicClientId(request.getHeader(HttpHeaders.AUTHORIZATION));
        Buffer read = ctx.get(BodyLimits.READ_BODY);
        if (basic == null && read != null) {
            forwardForm(ctx, route, read); // a chunked form, already read (BodyLimits)
            return;
        }
        if (basic != null || !TokenEndpointCallers.smallForm(request)) {
            if (basic == null || !refusals.limited(ctx, limits.takeForOAuthClient(route.path(), basic))) {
                send(ctx, route, null);
            }
            return;
        }
        request.body().onSuccess(form -> forwardForm(ctx, route, form))
                .onFailure(failed -> refusals.problem(ctx, 400, "The request body could not be read."));
        request.resume(); // the router leaves a request's body paused
    }

    /** A limited endpoint's form, read here: limited per the client it names, then sent on as it came. */
    private void forwardForm(RoutingContext ctx, PublicRoutes.Route route, Buffer form) {
        String named = TokenEndpointCallers.formClientId(form);
        if (named == null || !refusals.limited(ctx, limits.takeForOAuthClient(route.path(), named))) {
            send(ctx, route, form);
        }
    }

    /** On to auth-service with the caller's own credentials and query. */
    private void send(RoutingContext ctx, PublicRoutes.Route route, Buffer body) {
        upstreams.send(ctx, route.service(), Upstream.of(ctx, route, ctx.request().query(), true, null, null, body));
    }
}
