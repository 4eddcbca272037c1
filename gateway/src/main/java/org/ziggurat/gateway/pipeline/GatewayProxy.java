package org.ziggurat.gateway.pipeline;

import org.ziggurat.gateway.GatewayConfig;
import org.ziggurat.gateway.accesslog.AccessLog;
import org.ziggurat.gateway.identity.AccessTokens;
import org.ziggurat.gateway.identity.DpopProofs;
import org.ziggurat.gateway.identity.IntrospectionAnswers;
import org.ziggurat.gateway.route.RouteResources;
import org.ziggurat.gateway.identity.CallerAddress;
import org.ziggurat.gateway.identity.ClientAddresses;
import org.ziggurat.gateway.identity.Identities;
import org.ziggurat.gateway.limits.RateLimits;
import org.ziggurat.gateway.limits.Refusals;
import org.ziggurat.gateway.limits.TokenEndpointCallers;
import org.ziggurat.gateway.reference.ApiReference;
import org.ziggurat.gateway.route.Cors;
import org.ziggurat.gateway.route.PublicRoutes;
import org.ziggurat.gateway.route.Upstream;
import org.ziggurat.gateway.route.UpstreamProxies;

import io.quarkus.runtime.LaunchMode;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.vertx.http.runtime.security.SecurityHandlerPriorities;
import io.smallrye.common.vertx.ContextLocals;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.ziggurat.platform.http.BodyLimits;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;
import org.ziggurat.platform.logging.RequestIds;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The public edge: every request of the public path space is streamed to the owning service
 * (bodies are never buffered here), with the version prefix removed, the forwarded headers set
 * from the public base URL, and a request id. What the caller says about forwarding or identity
 * is never passed on. {@link #route} is the pipeline: request id and caller, the API reference,
 * the route, CORS, then the token endpoint's limits or the access token, the rate limit, and the
 * service ({@link UpstreamProxies}).
 */
@ApplicationScoped
public class GatewayProxy {

    /**
     * Before the routes and filters of Quarkus itself (CORS at -300, then HTTP authentication and
     * the REST layer's route-template filter). The gateway answers every request of its public
     * router itself, checks access tokens itself ({@link Identities}) and states the metrics
     * template itself; the authentication filter would set up a deferred identity and three Unis
     * per request for nothing.
     */
    static final int ORDER = -(SecurityHandlerPriorities.CORS + 1);

    /** Where Quarkus's HTTP metrics take a request's {@code uri} tag from (a context local); else the raw path. */
    static final String METRICS_TEMPLATE = "UrlPathTemplate";

    private static final Logger LOG = Logger.getLogger(GatewayProxy.class);

    // The gateway's own beans that every request calls are @Singleton, not @ApplicationScoped: a
    // call to an @ApplicationScoped bean goes through a client proxy that looks its instance up on
    // every call, on the path every request takes.
    private final GatewayConfig config;
    private final Identities identities;
    private final RateLimits limits;
    private final Refusals refusals;
    private final Cors cors;
    private final AccessLog accessLog;
    private final ApiReference reference;
    private final UpstreamProxies upstreams;
    private final ClientAddresses clientAddresses;

    public GatewayProxy(GatewayConfig config, Identities identities, RateLimits limits, Refusals refusals, Cors cors,
            AccessLog accessLog, ApiReference reference, UpstreamProxies upstreams, DpopProofs dpop) {
        this.dpop = dpop;
        this.config = config;
        this.identities = identities;
        this.limits = limits;
        this.refusals = refusals;
        this.cors = cors;
        this.accessLog = accessLog;
        this.reference = reference;
        this.upstreams = upstreams;
        this.clientAddresses = new ClientAddresses(config.trustedProxies().orElse(List.of()));
        this.resources = new RouteResources(config);
    }

    private final RouteResources resources;
    private final DpopProofs dpop;

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
            oauth(ctx, route, callerKey);
        } else {
            api(ctx, route, callerKey, requestId);
        }
    }

    /**
     * /oauth/**: auth-service reads the caller's credentials itself, so they pass through
     * untouched. The token endpoint, device authorization and pushed requests are limited per
     * address and per client (the client named by HTTP Basic, or in a small form the gateway reads
     * for it and passes on as it came), each endpoint in windows of its own.
     */
    private void oauth(RoutingContext ctx, PublicRoutes.Route route, String callerKey) {
        HttpServerRequest request = ctx.request();
        if (!limits.enabled() || !TokenEndpointCallers.limited(route.path())) {
            forward(ctx, route, request.query(), true, null, null, null);
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
                forward(ctx, route, request.query(), true, null, null, null);
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
            forward(ctx, route, ctx.request().query(), true, null, null, form);
        }
    }

    /** The API: anonymous (limited per address), or as the access token's holder (limited per token). */
    private void api(RoutingContext ctx, PublicRoutes.Route route, String callerKey, String requestId) {
        HttpServerRequest request = ctx.request();
        AccessTokens.Found token = AccessTokens.find(request.getHeader(HttpHeaders.AUTHORIZATION), request.query());
        if (token.problem() != null) {
            refusals.unauthorized(ctx, "invalid_request", token.problem());
            return;
        }
        String query = AccessTokens.withoutToken(request.query());
        if (token.token() == null) {
            if (!refusals.limited(ctx, limits.enabled() ? limits.takeForAddress(callerKey) : null)) {
                forward(ctx, route, query, false, null, null, null);
            }
            return;
        }
        Identities.Resolved known = identities.known(token.token());
        if (known != null && known.jkt() == null && !token.dpop()) {
            // The usual case, a bearer token seen before: no wait, so no Uni and no pause.
            forwardAs(ctx, route, query, token.token(), known);
            return;
        }
        request.pause(); // the body waits while the token is checked
        if (known != null) {
            withProof(ctx, route, query, token, known);
            return;
        }
        identities.resolve(token.token(), ctx).subscribe().with(resolved -> {
            if (resolved.jkt() != null || token.dpop()) {
                withProof(ctx, route, query, token, resolved);
            } else if (!forwardAs(ctx, route, query, token.token(), resolved)) {
                request.resume();
            }
        }, failure -> {
            request.resume();
            if (failure instanceof AuthenticationFailedException && !Identities.introspectionUnavailable(failure)) {
                refusals.unauthorized(ctx, "invalid_token", "The access token is invalid, expired or revoked.");
            } else {
                LOG.warnf("token introspection failed [request %s]: %s", requestId, failure.toString());
                refusals.problem(ctx, 503, "Access tokens cannot be checked right now. Try again shortly.");
            }
        });
    }

    /**
     * A call with a token bound to a key, or sent as DPoP (RFC 9449 §7): both, and the call's proof
     * good and seen for the first time by any replica, or a 401 with the DPoP challenge. The request
     * is paused; it is resumed when refused.
     */
    private void withProof(RoutingContext ctx, PublicRoutes.Route route, String query, AccessTokens.Found token,
            Identities.Resolved resolved) {
        HttpServerRequest request = ctx.request();
        if (resolved.jkt() == null || !token.dpop()) {
            request.resume();
            refusals.unauthorizedDpop(ctx, "invalid_token", resolved.jkt() == null
                    ? "This access token is not bound to a key: send it as a Bearer token."
                    : "This access token is bound to a key: send it as 'DPoP <token>' with the call's DPoP proof.",
                    DpopProofs.ALGORITHM_NAMES);
            return;
        }
        DpopProofs.Checked proof = dpop.check(request.method().name(), request.path(), request.getHeader("DPoP"),
                token.token(), resolved.jkt(), resolved.clientId());
        if (proof.problem() != null) {
            request.resume();
            refusals.unauthorizedDpop(ctx, "invalid_dpop_proof", proof.problem(), DpopProofs.ALGORITHM_NAMES);
            return;
        }
        dpop.firstUse(resolved.jkt(), proof).subscribe().with(first -> {
            if (!first) {
                request.resume();
                refusals.unauthorizedDpop(ctx, "invalid_dpop_proof", "The DPoP proof was used already: each call needs a "
                        + "new one.", DpopProofs.ALGORITHM_NAMES);
            } else if (!forwardAs(ctx, route, query, token.token(), resolved)) {
                request.resume();
            }
        }, failure -> {
            request.resume();
            LOG.warnf("DPoP proof could not be recorded: %s", failure.toString());
            refusals.problem(ctx, 503, "DPoP proofs cannot be checked right now. Try again shortly.");
        });
    }

    /**
     * Forwards the request as the token's holder; false when it was refused instead: the caller's
     * rate limit, or a token whose audience (RFC 8707) is another resource than the route's.
     */
    private boolean forwardAs(RoutingContext ctx, PublicRoutes.Route route, String query, String token,
            Identities.Resolved resolved) {
        if (!IntrospectionAnswers.meantFor(resolved.audience(), resources.of(route.service()), resources.platform())) {
            refusals.unauthorized(ctx, "invalid_token", "The access token is meant for another resource (its audience).");
            return false;
        }
        if (refusals.limited(ctx, limits.enabled() ? limits.takeForToken(token) : null)) {
            return false;
        }
        forward(ctx, route, query, false, resolved.platformToken(), token, null);
        return true;
    }

    private void forward(RoutingContext ctx, PublicRoutes.Route route, String query, boolean passAuthorization,
            String platformToken, String accessToken, Buffer body) {
        // A chunked body that BodyLimits read and counted goes on whole, with its length.
        Buffer sent = body != null ? body : ctx.get(BodyLimits.READ_BODY);
        upstreams.send(ctx, route.service(), new Upstream(
                query == null || query.isEmpty() ? route.path() : route.path() + "?" + query,
                passAuthorization, platformToken, CallerAddress.of(ctx), accessToken, ctx, sent));
    }
}
