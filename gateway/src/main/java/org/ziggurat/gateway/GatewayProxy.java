package org.ziggurat.gateway;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.smallrye.common.vertx.ContextLocals;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.quarkus.security.AuthenticationFailedException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.StreamResetException;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.httpproxy.Body;
import io.vertx.httpproxy.HttpProxy;
import io.vertx.httpproxy.ProxyContext;
import io.vertx.httpproxy.ProxyInterceptor;
import io.vertx.httpproxy.ProxyResponse;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;
import org.ziggurat.platform.http.RequestIds;
import org.ziggurat.platform.problem.HttpStatusTitles;
import org.ziggurat.platform.problem.Problem;
import org.ziggurat.platform.problem.ProblemRoutes;
import org.ziggurat.platform.token.PlatformClaims;

import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;

/**
 * The public edge: every request of the public path space is streamed to the owning service
 * (bodies are never buffered here), with the version prefix removed, the forwarded headers set
 * from the public base URL, and a request id. What the caller says about forwarding or identity
 * is never passed on.
 */
@ApplicationScoped
public class GatewayProxy {

    /**
     * Before the routes of Quarkus itself and before its filters: the first of those, at order
     * -300, is CORS, then come HTTP authentication and the REST layer's route-template filter.
     * The gateway answers every request of its public router itself, checks access tokens itself
     * ({@link Identities}) and states the metrics template itself, so none of them has anything to
     * do here; the authentication filter alone set up a deferred identity and three Unis per request
     * (2% of the gateway's CPU under the benchmark's load).
     */
    static final int ORDER = -(io.quarkus.vertx.http.runtime.security.SecurityHandlerPriorities.CORS + 1);

    /**
     * Where Quarkus's HTTP metrics take a request's {@code uri} tag from (a local of the request's
     * Vert.x context, as Quarkus REST sets it); without it they tag the raw path.
     */
    static final String METRICS_TEMPLATE = "UrlPathTemplate";

    /**
     * What the route decided about one request, for the interceptor that sends it on: a local of
     * the request's Vert.x context, read on that context (HttpProxy calls the interceptor at once).
     * The headers are set on the proxy's copy of the request, which takes them without a second
     * validation pass (the platform token alone is 700 characters).
     */
    /** {@code accessToken} and {@code ctx}: the caller's token, kept to watch an event stream it opens (null when none). */
    /** {@code body}: a body the gateway read itself (a token request's form), sent in place of the request's stream. */
    record Upstream(String uri, boolean passAuthorization, String platformToken, String clientAddress, String accessToken,
            RoutingContext ctx, Buffer body) {
    }

    static final String UPSTREAM = "ziggurat.upstream";

    /** Request headers a caller may not set: the gateway states these itself. */
    static final List<String> STRIPPED = List.of(PlatformClaims.HEADER, "Forwarded", "X-Forwarded-For",
            "X-Forwarded-Proto", "X-Forwarded-Host", "X-Forwarded-Port", "X-Forwarded-Prefix", "X-Forwarded-Server");

    private static final Logger LOG = Logger.getLogger(GatewayProxy.class);

    // The gateway's own beans that every request calls (identities, rate limits, CORS, the API
    // reference, the access log) are @Singleton, not @ApplicationScoped: a call to an
    // @ApplicationScoped bean goes through a client proxy that looks its instance up on every call
    // (0.8% of the gateway's CPU under the benchmark's load).
    @Inject
    GatewayConfig config;

    @Inject
    ProblemRoutes problems;

    @Inject
    ObjectMapper mapper;

    @Inject
    Identities identities;

    @Inject
    RateLimits limits;

    @Inject
    Cors cors;

    @Inject
    AccessLog accessLog;

    @Inject
    ApiReference reference;

    /** The caller's address as the routing context carries it from the start of the request. */
    static final String CLIENT_ADDRESS = "ziggurat.client-address";

    private ClientAddresses clientAddresses;
    private final Map<String, SocketAddress> upstreams = new HashMap<>();
    private final Map<EventLoop, Map<String, HttpProxy>> proxiesByLoop = new ConcurrentHashMap<>();
    private Vertx vertx;
    private String forwardedProto;
    private String forwardedHost;
    private String forwardedPrefix;

    void register(@Observes Router router, Vertx vertx) {
        if (io.quarkus.runtime.LaunchMode.current() == io.quarkus.runtime.LaunchMode.NORMAL
                && config.clientSecret().map(String::length).orElse(0) < 32) {
            // Without it every token would fail introspection: refuse to start instead.
            throw new IllegalStateException("ziggurat.gateway.client-secret (the gateway's secret at auth-service, "
                    + "at least 32 characters) is not set");
        }
        URI base = config.publicBaseUrl();
        if (!base.isAbsolute() || base.getHost() == null || !base.getScheme().matches("https?")) {
            throw new IllegalStateException("ziggurat.gateway.public-base-url must be an absolute http(s) URL, not '"
                    + base + "'");
        }
        forwardedProto = base.getScheme();
        forwardedHost = base.getPort() > 0 ? base.getHost() + ":" + base.getPort() : base.getHost();
        String basePath = base.getPath() == null ? "" : base.getPath();
        forwardedPrefix = basePath.endsWith("/") ? basePath.substring(0, basePath.length() - 1) : basePath;

        for (String service : List.of(PublicRoutes.AUTH, PublicRoutes.DIRECTORY, PublicRoutes.VOCAB, PublicRoutes.EVENTS)) {
            URI upstream = config.upstreams().get(service);
            if (upstream == null) {
                throw new IllegalStateException("ziggurat.gateway.upstreams." + service + " is not set");
            }
            upstreams.put(service, SocketAddress.inetSocketAddress(upstream.getPort() > 0 ? upstream.getPort() : 80,
                    upstream.getHost()));
        }
        clientAddresses = new ClientAddresses(config.trustedProxies().orElse(List.of()));
        this.vertx = vertx;
        reference.init(vertx);
        router.route().order(ORDER).handler(this::route);
    }

    void route(RoutingContext ctx) {
        long started = System.nanoTime();
        HttpServerRequest request = ctx.request();
        String requestId = RequestIds.acceptOrGenerate(request.getHeader(RequestIds.HEADER));
        request.headers().set(RequestIds.HEADER, requestId);
        String client = clientAddresses.of(peerAddress(request), request.getHeader("X-Forwarded-For"),
                request.getHeader("Forwarded"));
        ctx.put(CLIENT_ADDRESS, client);
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
            problems.write(ctx, 404, "No resource exists at this address.");
            return;
        }
        PublicRoutes.Route route = found.get();
        ctx.put(AccessLog.SERVICE, route.service());
        ContextLocals.put(METRICS_TEMPLATE, route.template());
        if (cors.apply(ctx, route) && request.method() == HttpMethod.OPTIONS) {
            return; // a preflight, answered
        }
        if (PublicRoutes.isOAuth(route.path())) {
            if (limits.enabled() && route.path().equals(TOKEN_ENDPOINT)) {
                if (limited(ctx, limits.takeForTokenEndpoint(Objects.requireNonNullElse(client, "unknown")))) {
                    return;
                }
                String basic = basicClientId(request.getHeader(HttpHeaders.AUTHORIZATION));
                if (basic != null) {
                    if (!limited(ctx, limits.takeForTokenEndpointClient(basic))) {
                        forward(ctx, route, request.query(), true, null);
                    }
                    return;
                }
                if (smallForm(request)) {
                    // The client names itself in the form: the small body is read here (auth-service
                    // reads at most 16 KiB of it too), counted, and passed on as it came.
                    request.body().onSuccess(form -> {
                        String named = formClientId(form);
                        if (named == null || !limited(ctx, limits.takeForTokenEndpointClient(named))) {
                            forward(ctx, route, request.query(), true, null, null, form);
                        }
                    }).onFailure(failed -> problems.write(ctx, 400, "The request body could not be read."));
                    request.resume(); // the router leaves a request's body paused
                    return;
                }
            }
            // auth-service reads the caller's credentials itself here: pass through untouched.
            forward(ctx, route, request.query(), true, null);
            return;
        }
        AccessTokens.Found token = AccessTokens.find(request.getHeader(HttpHeaders.AUTHORIZATION), request.query());
        if (token.problem() != null) {
            unauthorized(ctx, "invalid_request", token.problem());
            return;
        }
        String query = AccessTokens.withoutToken(request.query());
        if (token.token() == null) {
            if (limited(ctx, limits.enabled() ? limits.takeForAddress(Objects.requireNonNullElse(client, "unknown")) : null)) {
                return;
            }
            forward(ctx, route, query, false, null);
            return;
        }
        Identities.Resolved known = identities.known(token.token());
        if (known != null) {
            // The usual case, a token seen before: no wait, so no Uni and no pause.
            forwardAs(ctx, route, query, token.token(), known);
            return;
        }
        // The body waits while the token is checked.
        request.pause();
        identities.resolve(token.token(), ctx).subscribe().with(resolved -> {
            if (!forwardAs(ctx, route, query, token.token(), resolved)) {
                request.resume();
            }
        }, failure -> {
            request.resume();
            if (failure instanceof AuthenticationFailedException && !introspectionUnavailable(failure)) {
                unauthorized(ctx, "invalid_token", "The access token is invalid, expired or revoked.");
            } else {
                LOG.warnf("token introspection failed [request %s]: %s", requestId, failure.toString());
                problems.write(ctx, 503, "Access tokens cannot be checked right now. Try again shortly.");
            }
        });
    }

    /**
     * The token could not be checked, as opposed to being checked and refused: auth-service
     * answered its introspection endpoint with a 5xx (its database away, say) or did not answer.
     * quarkus-oidc reports both as an authentication failure; a client must see 503 and retry,
     * not 401 and throw its token away.
     */
    static boolean introspectionUnavailable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            // OIDCException: the introspection endpoint answered other than 200 (an inactive token is
            // a 200 with active=false, reported as a plain authentication failure).
            if (t instanceof io.quarkus.oidc.OIDCException
                    || t instanceof io.quarkus.oidc.common.runtime.OidcEndpointAccessException access && access.getErrorStatus() >= 500
                    || t instanceof java.net.ConnectException || t instanceof io.netty.channel.ConnectTimeoutException
                    || t instanceof java.util.concurrent.TimeoutException) {
                return true;
            }
        }
        return false;
    }

    /** Forwards the request as the token's holder; false when the caller's rate limit refused it. */
    private boolean forwardAs(RoutingContext ctx, PublicRoutes.Route route, String query, String token,
            Identities.Resolved resolved) {
        if (limited(ctx, limits.enabled() ? limits.takeForToken(token) : null)) {
            return false;
        }
        forward(ctx, route, query, false, resolved.platformToken(), token, null);
        return true;
    }

    private void forward(RoutingContext ctx, PublicRoutes.Route route, String query, boolean passAuthorization,
            String platformToken) {
        forward(ctx, route, query, passAuthorization, platformToken, null, null);
    }

    private void forward(RoutingContext ctx, PublicRoutes.Route route, String query, boolean passAuthorization,
            String platformToken, String accessToken, Buffer body) {
        ContextLocals.put(UPSTREAM, new Upstream(query == null || query.isEmpty() ? route.path() : route.path() + "?" + query,
                passAuthorization, platformToken, clientAddress(ctx), accessToken, ctx, body));
        EventLoop loop = ((ContextInternal) ctx.vertx().getOrCreateContext()).nettyEventLoop();
        proxiesByLoop.computeIfAbsent(loop, l -> proxies()).get(route.service()).handle(ctx.request());
    }

    /**
     * The proxies of one event loop, with a client and connection pool of their own. A pooled
     * connection belongs to the event loop that opened it; shared by all loops, a request took a
     * connection of another loop a quarter of the time, and its write and its answer each crossed
     * threads (a wake-up and two context switches, seen in the profile as eventfd writes).
     */
    private Map<String, HttpProxy> proxies() {
        HttpClient client = vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout((int) config.connectTimeout().toMillis())
                .setKeepAlive(true)
                // Never evict an idle pooled connection from this side. Vert.x's eviction (60 s by
                // default) races with a request that takes the same connection at that moment: the
                // request fails with "Connection was closed" and the caller gets a 503 (seen once a
                // minute under a varying load). A service closes connections idle for its own
                // idle timeout (30 minutes) instead, a close the client normally sees before it takes the connection again.
                .setKeepAliveTimeout(0)
                // An upstream body is passed on chunk by chunk, each chunk a write to the caller's
                // socket (a system call). Vert.x's default 8 KB chunks made a 130 KB vocabulary page
                // 16 writes: a quarter of the gateway's time. A chunk is at most what one read gave.
                .setMaxChunkSize(64 * 1024)
                .setDecompressionSupported(false), new PoolOptions().setHttp1MaxSize(config.maxConnectionsPerService()));
        Map<String, HttpProxy> proxies = new HashMap<>();
        upstreams.forEach((service, address) -> {
            HttpProxy proxy = HttpProxy.reverseProxy(client)
                    .originRequestProvider((request, httpClient) -> httpClient.request(new RequestOptions()
                            .setServer(address)
                            .setIdleTimeout(config.upstreamTimeout().toMillis())));
            proxy.addInterceptor(new Forwarding(service));
            proxies.put(service, proxy);
        });
        return proxies;
    }

    /** What the caller may not say is removed; what the gateway states is set. */
    private void setForwarded(MultiMap headers, Upstream upstream) {
        STRIPPED.forEach(headers::remove);
        if (!upstream.passAuthorization()) {
            headers.remove(HttpHeaders.AUTHORIZATION);
        }
        headers.set("X-Forwarded-Proto", forwardedProto);
        headers.set("X-Forwarded-Host", forwardedHost);
        if (!forwardedPrefix.isEmpty()) {
            headers.set("X-Forwarded-Prefix", forwardedPrefix);
        }
        if (upstream.clientAddress() != null) {
            headers.set("X-Forwarded-For", upstream.clientAddress());
        }
        if (upstream.platformToken() != null) {
            headers.set(PlatformClaims.HEADER, upstream.platformToken());
        }
    }

    static final String TOKEN_ENDPOINT = "/oauth/token";

    /**
     * The largest token request body the gateway reads to find the client it names (the token
     * endpoint is limited per client: its id from HTTP Basic, or the form's {@code client_id}); the
     * same as auth-service's own limit. Every other body is streamed, never buffered.
     */
    static final int TOKEN_FORM_BYTES = 16 * 1024;

    /** A form body of a declared length the gateway may read (a chunked one is refused by BodyLimits). */
    static boolean smallForm(HttpServerRequest request) {
        String type = request.getHeader(HttpHeaders.CONTENT_TYPE);
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        if (type == null || !type.regionMatches(true, 0, "application/x-www-form-urlencoded", 0, 33) || length == null) {
            return false;
        }
        try {
            long declared = Long.parseLong(length.trim());
            return declared > 0 && declared <= TOKEN_FORM_BYTES;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** The form's one {@code client_id}, or null (none, repeated, not a plausible id, not form encoding). */
    static String formClientId(Buffer form) {
        try {
            java.util.List<String> ids = new io.netty.handler.codec.http.QueryStringDecoder(form.toString(
                    java.nio.charset.StandardCharsets.UTF_8), false).parameters().get("client_id");
            String id = ids == null || ids.size() != 1 ? null : ids.get(0);
            return id == null || id.isEmpty() || id.length() > 64 ? null : id;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The client id of an HTTP Basic header, or null (no header, another scheme, malformed). */
    static String basicClientId(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return null;
        }
        try {
            String decoded = new String(java.util.Base64.getDecoder().decode(authorization.substring(6).trim()),
                    java.nio.charset.StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            String id = colon < 0 ? null : decoded.substring(0, colon);
            return id == null || id.isEmpty() || id.length() > 64 ? null : id;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Sets the rate-limit headers; answers 429 and returns true when the caller's window is spent. */
    private boolean limited(RoutingContext ctx, RateLimits.Decision decision) {
        if (decision == null) {
            return false;
        }
        MultiMap out = ctx.response().headers();
        out.set("X-RateLimit-Limit", Integer.toString(decision.limit()));
        out.set("X-RateLimit-Remaining", Integer.toString(decision.remaining()));
        out.set("X-RateLimit-Reset", Long.toString(decision.resetEpochSecond()));
        if (decision.allowed()) {
            return false;
        }
        out.set("Retry-After", Long.toString(Math.max(1, decision.resetEpochSecond() - java.time.Instant.now().getEpochSecond())));
        problems.write(ctx, 429, "The rate limit for this caller is spent until X-RateLimit-Reset.");
        return true;
    }

    private void unauthorized(RoutingContext ctx, String error, String detail) {
        ctx.response().headers().set("WWW-Authenticate",
                "Bearer realm=\"ziggurat\", error=\"" + error + "\"");
        problems.write(ctx, 401, detail);
    }

    /**
     * The TCP peer's address, from the connection (Quarkus's forwarded-address parsing is off:
     * ClientAddresses decides which forwarded headers to believe).
     */
    static String peerAddress(HttpServerRequest request) {
        SocketAddress address = request.connection() == null ? null : request.connection().remoteAddress();
        return address == null ? null : address.hostAddress();
    }

    /** The caller's address: the peer, or the one trusted proxies name (ClientAddresses). */
    static String clientAddress(RoutingContext ctx) {
        String known = ctx.get(CLIENT_ADDRESS);
        return known != null ? known : peerAddress(ctx.request());
    }

    /** The last event of a stream whose access token stopped being active. */
    static final String TOKEN_INACTIVE_EVENT = "event: stream_closed\ndata: {\"reason\":\"token_inactive\","
            + "\"detail\":\"The access token expired or was revoked.\"}\n\n";

    /**
     * An event stream was authorized once, when it opened; it stays open for hours. While it is
     * open its access token is checked again every {@code stream-token-recheck}, as any request's
     * would be (so a revocation is seen within {@code token-cache-ttl}); once the token is no
     * longer active, a last event says why, the answer ends, and the service's stream is cut.
     */
    void watch(Upstream upstream, EndableStream stream) {
        RoutingContext ctx = upstream.ctx();
        io.vertx.core.Vertx loop = ctx.vertx();
        loop.setPeriodic(Math.max(100, config.streamTokenRecheck().toMillis()), timer -> {
            if (ctx.response().ended() || ctx.response().closed()) {
                loop.cancelTimer(timer);
                return;
            }
            identities.resolve(upstream.accessToken(), ctx).subscribe().with(stillActive -> {
            }, failure -> {
                if (failure instanceof AuthenticationFailedException && !introspectionUnavailable(failure)) {
                    loop.cancelTimer(timer);
                    stream.finish(Buffer.buffer(TOKEN_INACTIVE_EVENT));
                }
            });
        });
    }

    /**
     * Rewrites the URI, removes what the caller may not say and sets the forwarded headers and the
     * platform token, echoes the request id, and turns an unreachable or silent service into a problem.
     */
    private final class Forwarding implements ProxyInterceptor {

        private final String service;

        Forwarding(String service) {
            this.service = service;
        }

        @Override
        public Future<ProxyResponse> handleProxyRequest(ProxyContext context) {
            Upstream upstream = ContextLocals.<Upstream>get(UPSTREAM).orElseThrow();
            context.request().setURI(upstream.uri());
            if (upstream.body() != null) {
                context.request().setBody(Body.body(upstream.body()));
            }
            setForwarded(context.request().headers(), upstream);
            return context.sendRequest().recover(failure -> Future.succeededFuture(unavailable(context, failure)));
        }

        @Override
        public Future<Void> handleProxyResponse(ProxyContext context) {
            context.response().headers().set(RequestIds.HEADER, context.request().headers().get(RequestIds.HEADER));
            String type = context.response().headers().get(HttpHeaders.CONTENT_TYPE);
            if (type != null && type.startsWith("text/event-stream")) {
                ContextLocals.<Upstream>get(UPSTREAM).filter(u -> u.accessToken() != null).ifPresent(upstream -> {
                    Body body = context.response().getBody();
                    EndableStream stream = new EndableStream(body.stream());
                    context.response().setBody(Body.body(stream, body.length()));
                    watch(upstream, stream);
                });
            }
            return context.sendResponse();
        }

        private ProxyResponse unavailable(ProxyContext context, Throwable failure) {
            boolean timeout = failure instanceof TimeoutException
                    || failure.getClass().getSimpleName().contains("Timeout");
            int status = timeout ? 504 : 503;
            String requestId = context.request().headers().get(RequestIds.HEADER);
            if (callerLeft(failure)) {
                LOG.debugf("caller left before %s answered %s %s [request %s]", service, context.request().getMethod(),
                        context.request().getURI(), requestId);
            } else {
                LOG.warnf("%s unavailable for %s %s [request %s]: %s", service, context.request().getMethod(),
                        context.request().getURI(), requestId, failure.toString());
            }
            Problem problem = new Problem("about:blank", HttpStatusTitles.of(status), status,
                    timeout ? "The service behind this address did not answer in time."
                            : "The service behind this address is unavailable. Try again shortly.",
                    context.request().proxiedRequest().path(), requestId, null);
            ProxyResponse response = context.request().response();
            response.setStatusCode(status);
            response.setStatusMessage(HttpStatusTitles.of(status));
            response.headers().clear();
            response.putHeader(HttpHeaderNames.CONTENT_TYPE, Problem.MEDIA_TYPE);
            response.putHeader("Retry-After", "1");
            response.setBody(Body.body(Buffer.buffer(json(problem))));
            return response;
        }
    }

    /**
     * The upstream request was reset because the caller closed its connection first (a client
     * timing out, a load generator stopping): nothing is wrong upstream, so no warning. Over
     * HTTP/1.1 only this side resets a request, and it does so when the caller goes away.
     */
    static boolean callerLeft(Throwable failure) {
        return failure instanceof StreamResetException;
    }

    private String json(Problem problem) {
        try {
            return mapper.writeValueAsString(problem);
        } catch (JsonProcessingException e) {
            return "{\"status\":" + problem.status() + "}";
        }
    }
}
