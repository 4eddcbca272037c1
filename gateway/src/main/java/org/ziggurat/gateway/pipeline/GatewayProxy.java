package org.ziggurat.gateway.pipeline;

import org.ziggurat.gateway.GatewayConfig;
import org.ziggurat.gateway.accesslog.AccessLog;
import org.ziggurat.gateway.identity.CallerAddress;
import org.ziggurat.gateway.identity.ClientAddresses;
import org.ziggurat.gateway.limits.Refusals;
import org.ziggurat.gateway.reference.ApiReference;
import org.ziggurat.gateway.route.Cors;
import org.ziggurat.gateway.route.PublicRoutes;
import org.ziggurat.gateway.route.UpstreamProxies;

import io.quarkus.runtime.LaunchMode;
import io.quarkus.vertx.http.runtime.security.SecurityHandlerPriorities;
import io.smallrye.common.vertx.ContextLocals;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.ziggurat.platform.logging.RequestIds;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The public edge: every request of the public path space is streamed to the owning service
 * (bodies are never buffered here), with the version prefix removed, the forwarded headers set
 * from the public base URL, and a request id. What the caller says about forwarding or identity
 * is never passed on. {@link #route} is the pipeline: request id and caller, the API reference and
 * the protected resource metadata ({@link ProtectedResourceMetadata}), the route, CORS, then the
 * token endpoint's limits ({@link OAuthForwarding}) or the access token and the rate limit
 * ({@link ApiForwarding}), and the service ({@link UpstreamProxies}).
 */
@ApplicationScoped
public class GatewayProxy {

    /**
     * Before the routes and filters of Quarkus itself (CORS at -300, then HTTP authentication and
     * the REST layer's route-template filter). The gateway answers every request of its public
     * router itself, checks access tokens itself ({@link ApiForwarding}) and states the metrics
     * template itself; the authentication filter would set up a deferred identity and three Unis
     * per request for nothing.
     */
    static final int ORDER = -(SecurityHandlerPriorities.CORS + 1);

    /** Where Quarkus's HTTP metrics take a request's {@code uri} tag from (a context local); else the raw path. */
    static final String METRICS_TEMPLATE = "UrlPathTemplate";

    // The gateway's own beans that every request calls are @Singleton, not @ApplicationScoped: a
    // call to an @ApplicationScoped bean goes through a client proxy that looks its instance up on
    // every call, on the path every request takes.
    private final GatewayConfig config;
    private final Refusals refusals;
    private final Cors cors;
    private final AccessLog accessLog;
    private final ApiReference reference;
    private final UpstreamProxies upstreams;
    private final OAuthForwarding oauth;
    private final ApiForwarding api;
    private final ClientAddresses clientAddresses;
    private final ProtectedResourceMetadata resourceMetadata;

    public GatewayProxy(GatewayConfig config, Refusals refusals, Cors cors, AccessLog accessLog, ApiReference reference,
            UpstreamProxies upstreams, OAuthForwarding oauth, ApiForwarding api, ProtectedResourceMetadata resourceMetadata) {
        this.config = config;
        this.refusals = refusals;
        this.cors = cors;
        this.accessLog = accessLog;
        this.reference = reference;
        this.upstreams = upstreams;
        this.oauth = oauth;
        this.api = api;
        this.resourceMetadata = resourceMetadata;
        this.clientAddresses = new ClientAddresses(config.trustedProxies().orElse(List.of()));
    }

    void register(@Observes Router router, Vertx vertx) {
        ProductionReadiness.require(config, LaunchMode.current());
        upstreams.start(vertx);
        reference.init(vertx);
        router.route().order(ORDER).handler(this::route);
    }

    void route(RoutingContext ctx) {
        long started = System.nanoTime();
        HttpServerRequest request = ctx.request();
        String requestId = RequestIds.acceptOrGenerate(request.getHeader(RequestIds.HEADER));
        request.headers().set(RequestIds.HEADER, requestId);
        String client = clientAddresses.of(CallerAddress.peer(request), request.getHeader("X-Forwarded-For"),
                request.getHeader("Forwarded"));
        ctx.put(CallerAddress.CONTEXT_KEY, client);
        ctx.addEndHandler(done -> accessLog.log(ctx, requestId, started));
        String publicPath = PublicRoutes.stripVersion(ctx.normalizedPath());
        if (reference.handles(publicPath) && request.method() == HttpMethod.GET) {
            ContextLocals.put(METRICS_TEMPLATE, publicPath);
            reference.serve(ctx, publicPath);
            return;
        }
        if (resourceMetadata.handles(publicPath)) {
            // Before the routes: the rest of /.well-known/** is auth-service's.
            ContextLocals.put(METRICS_TEMPLATE, ProtectedResourceMetadata.TEMPLATE);
            resourceMetadata.serve(ctx, publicPath);
            return;
        }
        Optional<PublicRoutes.Route> found = PublicRoutes.resolve(ctx.normalizedPath());
        if (found.isEmpty()) {
            ContextLocals.put(METRICS_TEMPLATE, PublicRoutes.UNROUTED_TEMPLATE);
            refusals.problem(ctx, 404, "No resource exists at this address.");
            return;
        }
        PublicRoutes.Route route = found.get();
        ctx.put(AccessLog.SERVICE, route.service());
        ContextLocals.put(METRICS_TEMPLATE, route.template());
        if (cors.apply(ctx, route) && request.method() == HttpMethod.OPTIONS) {
            return; // a preflight, answered
        }
        String callerKey = Objects.requireNonNullElse(client, "unknown");
        if (PublicRoutes.isOAuth(route.path())) {
            oauth.forward(ctx, route, callerKey);
        } else {
            api.forward(ctx, route, callerKey, requestId);
        }
    }
}
