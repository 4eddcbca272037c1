package org.ziggurat.gateway.route;

import org.ziggurat.gateway.GatewayConfig;
import org.ziggurat.gateway.ProtectedResource;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.smallrye.common.vertx.ContextLocals;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;
import io.vertx.httpproxy.Body;
import io.vertx.httpproxy.HttpProxy;
import io.vertx.httpproxy.ProxyContext;
import io.vertx.httpproxy.ProxyInterceptor;
import io.vertx.httpproxy.ProxyResponse;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;
import org.ziggurat.platform.logging.RequestIds;
import org.ziggurat.platform.problem.HttpStatusTitles;
import org.ziggurat.platform.problem.Problem;
import org.ziggurat.platform.token.PlatformClaims;

import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;

/**
 * The way to the services: one reverse proxy per service and event loop, each loop with its own
 * client and connection pool. A request goes on with its URI rewritten, what the caller may not
 * say removed, the forwarded headers and the platform token set; an unreachable or silent service
 * becomes a problem (503, 504); an event stream is watched for its token ({@link StreamWatch}).
 */
@Singleton // called on every request: no client proxy in between (GatewayProxy)
public class UpstreamProxies {

    static final String UPSTREAM = "ziggurat.upstream";

    /** Request headers a caller may not set: the gateway states these itself. */
    static final List<String> STRIPPED = List.of(PlatformClaims.HEADER, "Forwarded", "X-Forwarded-For",
            "X-Forwarded-Proto", "X-Forwarded-Host", "X-Forwarded-Port", "X-Forwarded-Prefix", "X-Forwarded-Server");

    private static final Logger LOG = Logger.getLogger(UpstreamProxies.class);

    private final GatewayConfig config;
    private final ObjectMapper mapper;
    private final StreamWatch streams;
    private final Map<String, SocketAddress> upstreams = new HashMap<>();
    private final Map<EventLoop, Map<String, HttpProxy>> proxiesByLoop = new ConcurrentHashMap<>();
    private final String forwardedProto;
    private final String forwardedHost;
    private final String forwardedPrefix;
    private final ProtectedResource resource;
    private Vertx vertx;

    public UpstreamProxies(GatewayConfig config, ObjectMapper mapper, StreamWatch streams) {
        this.config = config;
        this.mapper = mapper;
        this.streams = streams;
        this.resource = ProtectedResource.of(config);
        URI base = config.publicBaseUrl();
        forwardedProto = base.getScheme();
        forwardedHost = base.getPort() > 0 ? base.getHost() + ":" + base.getPort() : base.getHost();
        String basePath = base.getPath() == null ? "" : base.getPath();
        forwardedPrefix = basePath.endsWith("/") ? basePath.substring(0, basePath.length() - 1) : basePath;
        config.upstreams().forEach((service, upstream) -> upstreams.put(service,
                SocketAddress.inetSocketAddress(upstream.getPort() > 0 ? upstream.getPort() : 80, upstream.getHost())));
    }

    public void start(Vertx vertx) {
        this.vertx = vertx;
    }

    /** Sends the request on to the service, through the proxy of the event loop it arrived on. */
    public void send(RoutingContext ctx, String service, Upstream upstream) {
        ContextLocals.put(UPSTREAM, upstream);
        EventLoop loop = ((ContextInternal) ctx.vertx().getOrCreateContext()).nettyEventLoop();
        proxiesByLoop.computeIfAbsent(loop, l -> proxies()).get(service).handle(ctx.request());
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
                // This side closes an idle connection before anything in between does: a balancer's
                // keep-alive timeout (10 s in the e2e stack's HAProxy before) closing a connection just
                // as the gateway reused it made a POST a 503 "Connection was closed". Vert.x never
                // closes a connection that a request holds, so this side's eviction races with nothing.
                // A close that still crosses a request is resent when safe (Forwarding.resend).
                .setKeepAliveTimeout(keepAliveSeconds(config.upstreamKeepAlive()))
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

    /** Vert.x counts keep-alive in whole seconds: any shorter positive time is one second, not never. */
    static int keepAliveSeconds(Duration keepAlive) {
        return keepAlive.isZero() ? 0 : (int) Math.max(1, keepAlive.toSeconds());
    }

    /** What the caller may not say is removed; what the gateway states is set. */
    private void setForwarded(MultiMap headers, Upstream upstream) {
        STRIPPED.forEach(headers::remove);
        if (!upstream.passAuthorization()) {
            // The token and its proof (RFC 9449) were checked here: the services get the platform token.
            headers.remove(HttpHeaders.AUTHORIZATION);
            headers.remove("DPoP");
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
            return context.sendRequest()
                    .recover(failure -> UpstreamFailures.replayable(context.request(), upstream) && UpstreamFailures.connectionLost(failure)
                            ? resend(context, failure)
                            : Future.failedFuture(failure))
                    .recover(failure -> Future.succeededFuture(unavailable(context, failure)));
        }

        /**
         * Sends a request once more, on another connection, after its pooled connection closed
         * before any answer: a balancer or the service closing a connection idle for its
         * keep-alive timeout just as this side reuses it, a close no client can foresee. Only for
         * what may be sent twice (RFC 9110 9.2.2), as nginx's {@code proxy_next_upstream} and
         * Envoy's reset retries do. The connection is gone from the pool by now, so the second
         * attempt takes another one.
         */
        private Future<ProxyResponse> resend(ProxyContext context, Throwable failure) {
            LOG.debugf("%s closed the connection under %s %s [request %s], sending it again: %s", service,
                    context.request().getMethod(), context.request().getURI(),
                    context.request().headers().get(RequestIds.HEADER), failure.toString());
            context.request().setBody(null); // the caller sent none; its ended stream cannot be read twice
            return context.sendRequest(); // past this interceptor already: straight to the service
        }

        @Override
        public Future<Void> handleProxyResponse(ProxyContext context) {
            context.response().headers().set(RequestIds.HEADER, context.request().headers().get(RequestIds.HEADER));
            if (context.response().getStatusCode() == 401 && ContextLocals.<Upstream>get(UPSTREAM).filter(u -> !u.passAuthorization()).isPresent()) {
                resource.challengeIn(context.response().headers()); // a service's (no token, a step-up) too
            }
            String type = context.response().headers().get(HttpHeaders.CONTENT_TYPE);
            if (type != null && type.startsWith("text/event-stream")) {
                ContextLocals.<Upstream>get(UPSTREAM).filter(u -> u.accessToken() != null).ifPresent(upstream -> {
                    Body body = context.response().getBody();
                    EndableStream stream = new EndableStream(body.stream());
                    context.response().setBody(Body.body(stream, body.length()));
                    streams.watch(upstream.ctx(), upstream.accessToken(), stream);
                });
            }
            return context.sendResponse();
        }

        private ProxyResponse unavailable(ProxyContext context, Throwable failure) {
            boolean timeout = failure instanceof TimeoutException
                    || failure.getClass().getSimpleName().contains("Timeout");
            int status = timeout ? 504 : 503;
            String requestId = context.request().headers().get(RequestIds.HEADER);
            if (UpstreamFailures.callerLeft(failure)) {
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

    private String json(Problem problem) {
        try {
            return mapper.writeValueAsString(problem);
        } catch (JsonProcessingException e) {
            return "{\"status\":" + problem.status() + "}";
        }
    }
}
