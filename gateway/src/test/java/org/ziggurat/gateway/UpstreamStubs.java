package org.ziggurat.gateway;

import org.ziggurat.gateway.route.PublicRoutes;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.net.ServerSocket;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Real HTTP servers standing in for the services behind the gateway: each answers with what it
 * received (service name, method, URI, headers, body length and SHA-256), or a large body at
 * {@code /.../big}, or a 401 at {@code /.../needs-token}. events-service points at a port where
 * nothing listens.
 */
public class UpstreamStubs implements QuarkusTestResourceLifecycleManager {

    /** The auth-service stand-in's base URL, as the running gateway was told it. */
    public static String authStub() {
        return org.eclipse.microprofile.config.ConfigProvider.getConfig().getValue("ziggurat.gateway.upstreams.auth-service",
                String.class);
    }


    public static final int BIG_BODY_BYTES = 3 * 1024 * 1024 + 17;

    /** The gateway's client at the auth-service stand-in. */
    public static final String GATEWAY_BASIC = "Basic " + java.util.Base64.getEncoder()
            .encodeToString("ziggurat-gateway:test-gateway-secret-0123456789abcdef".getBytes());

    private Vertx vertx;
    /**
     * Introspection answers by token, set by the tests through {@code PUT /__stub/tokens/:token};
     * {@code {"close": true}} closes the connection instead, {@code {"status": 500}} answers that.
     */
    private final Map<String, JsonObject> tokens = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicInteger introspections = new java.util.concurrent.atomic.AtomicInteger();
    /** The DPoP proofs the gateway recorded, as auth-service keeps them for every replica. */
    /** Requests that reached a closing path ({@link #closesConnection}), by path; read through {@code GET /__stub/attempts?path=}. */
    private final Map<String, java.util.concurrent.atomic.AtomicInteger> attempts = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.Set<io.vertx.core.http.HttpConnection> servedConnections =
            java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** When each open connection last received a request (System.nanoTime). */
    private final Map<io.vertx.core.http.HttpConnection, Long> lastRequest = new java.util.concurrent.ConcurrentHashMap<>();
    /** Open connections that served a {@code /closes-when-idle/} request; counted by {@code GET /__stub/idle-served}. */
    private final java.util.Set<io.vertx.core.http.HttpConnection> idleServed = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** The idle time after which a balancer of the stand-ins closes a connection ({@code /closes-when-idle/}). */
    public static final java.time.Duration BALANCER_KEEP_ALIVE = java.time.Duration.ofSeconds(3);

    /** The open revocation feeds (auth-service's {@code /internal/revocation-feed}), and whether new ones are refused. */
    private final java.util.Set<io.vertx.core.http.HttpServerResponse> feeds = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile boolean feedRefused;

    /** How the stand-in's revocation feed names a token, as auth-service does: the start of a hash, in hex. */
    public static String revocationReference(String token) {
        return sha256(token.getBytes(java.nio.charset.StandardCharsets.UTF_8)).substring(0, 16);
    }

    @Override
    public Map<String, String> start() {
        vertx = Vertx.vertx();
        Map<String, String> config = new HashMap<>();
        for (String service : new String[] {PublicRoutes.AUTH, PublicRoutes.DIRECTORY, PublicRoutes.VOCAB}) {
            config.put("ziggurat.gateway.upstreams." + service, "http://127.0.0.1:" + serve(service));
        }
        config.put("ziggurat.gateway.upstreams." + PublicRoutes.EVENTS, "http://127.0.0.1:" + closedPort());
        config.put("ziggurat.gateway.public-base-url", "https://api.test.example/api");
        return config;
    }

    private int serve(String service) {
        HttpServer server = vertx.createHttpServer().requestHandler(request -> {
            if (service.equals(PublicRoutes.AUTH) && authControl(request)) {
                return;
            }
            if (closesConnection(request)) {
                return;
            }
            if (request.path().equals("/q/openapi")) {
                request.response().putHeader("Content-Type", "application/json").end(openApi(service));
                return;
            }
            if (request.path().endsWith("/sse")) {
                // An event stream that stays open: a comment now and every 200 ms, until closed.
                request.response().setChunked(true).putHeader("Content-Type", "text/event-stream").write(": open\n\n");
                long timer = vertx.setPeriodic(200, t -> request.response().write(": keep-alive\n\n"));
                request.response().closeHandler(v -> vertx.cancelTimer(timer));
                request.connection().closeHandler(v -> vertx.cancelTimer(timer));
                return;
            }
            if (request.path().endsWith("/needs-token")) {
                // A service's own 401 for a call without a token, challenge as platform-rest writes it.
                request.response().setStatusCode(401).putHeader("WWW-Authenticate", "Bearer")
                        .putHeader("Content-Type", "application/problem+json").end("{\"status\":401}");
                return;
            }
            if (request.path().endsWith("/big")) {
                request.response().putHeader("Content-Type", "application/octet-stream").end(bigBody());
                return;
            }
            request.body().onSuccess(body -> {
                JsonObject headers = new JsonObject();
                request.headers().forEach(h -> headers.put(h.getKey().toLowerCase(), h.getValue()));
                JsonObject echo = new JsonObject()
                        .put("service", service)
                        .put("method", request.method().name())
                        .put("uri", request.uri())
                        .put("headers", headers)
                        .put("body_length", body.length())
                        .put("body_sha256", sha256(body.getBytes()));
                request.response().putHeader("Content-Type", "application/json").end(echo.encode());
            });
        });
        try {
            return server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS)
                    .actualPort();
        } catch (Exception e) {
            throw new IllegalStateException("Cannot start the stub for " + service, e);
        }
    }

    /**
     * A service closing a connection under a request, without an answer: under {@code /closes/}
     * always; under {@code /closes-when-reused/} when the connection served a request before, the
     * way a balancer's keep-alive timeout closes an idle connection just as the gateway reuses it.
     * Under {@code /closes-when-idle/}, when the connection was idle for {@link #BALANCER_KEEP_ALIVE}:
     * the close of a balancer's keep-alive timeout crossing the gateway's next request, the worst
     * case of that race, every time.
     * Every request that reached it is counted by path. True when it closed.
     */
    private boolean closesConnection(io.vertx.core.http.HttpServerRequest request) {
        String path = request.path();
        io.vertx.core.http.HttpConnection used = request.connection();
        Long previous = lastRequest.put(used, System.nanoTime());
        if (previous == null) {
            // One close handler for every record of the connection (a connection has one handler).
            used.closeHandler(v -> {
                lastRequest.remove(used);
                idleServed.remove(used);
                servedConnections.remove(used);
            });
        }
        if (path.contains("/closes-when-idle/")) {
            attempts.computeIfAbsent(path, p -> new java.util.concurrent.atomic.AtomicInteger()).incrementAndGet();
            idleServed.add(used);
            if (previous != null && System.nanoTime() - previous >= BALANCER_KEEP_ALIVE.toNanos()) {
                used.close();
                return true;
            }
            return false;
        }
        boolean always = path.contains("/closes/");
        if (!always && !path.contains("/closes-when-reused/")) {
            return false;
        }
        attempts.computeIfAbsent(path, p -> new java.util.concurrent.atomic.AtomicInteger()).incrementAndGet();
        io.vertx.core.http.HttpConnection connection = request.connection();
        if (always || !servedConnections.add(connection)) {
            connection.close();
            return true;
        }
        return false;
    }

    /**
     * The auth-service stand-in: RFC 7662 at {@code /oauth/introspect} for the gateway's client
     * (Basic credentials), and control endpoints for the tests. True when it answered.
     */
    private boolean authControl(io.vertx.core.http.HttpServerRequest request) {
        String path = request.path();
        if (path.startsWith("/__stub/tokens/") && request.method().name().equals("PUT")) {
            String token = path.substring("/__stub/tokens/".length());
            request.body().onSuccess(body -> {
                tokens.put(token, body.toJsonObject());
                request.response().setStatusCode(204).end();
            });
            return true;
        }
        if (path.equals("/__stub/idle-served")) {
            request.response().end(Integer.toString(idleServed.size()));
            return true;
        }
        if (path.equals("/__stub/attempts")) {
            var count = attempts.get(request.getParam("path"));
            request.response().end(Integer.toString(count == null ? 0 : count.get()));
            return true;
        }
        if (feedControl(request)) {
            return true;
        }
        if (path.equals("/__stub/introspections")) {
            request.response().end(Integer.toString(introspections.get()));
            return true;
        }
        if (path.equals("/oauth/introspect") && request.method().name().equals("POST")) {
            request.body().onSuccess(body -> {
                if (!GATEWAY_BASIC.equals(request.getHeader("Authorization"))) {
                    request.response().setStatusCode(401).putHeader("Content-Type", "application/json")
                            .end("{\"error\":\"invalid_client\"}");
                    return;
                }
                introspections.incrementAndGet();
                String token = new io.netty.handler.codec.http.QueryStringDecoder(body.toString(), false)
                        .parameters().getOrDefault("token", java.util.List.of("")).get(0);
                JsonObject answer = tokens.getOrDefault(token, new JsonObject().put("active", false));
                // What an auth-service that is going away does: the connection closed under the
                // request, or an error answer instead of an introspection.
                if (answer.getBoolean("close", false)) {
                    request.connection().close();
                    return;
                }
                if (answer.containsKey("status")) {
                    request.response().setStatusCode(answer.getInteger("status")).end();
                    return;
                }
                if (answer.getBoolean("active", false) && !answer.containsKey("revocation_ref")) {
                    answer = answer.copy().put("revocation_ref", revocationReference(token));
                }
                request.response().putHeader("Content-Type", "application/json").end(answer.encode());
            });
            return true;
        }
        return false;
    }

    /**
     * auth-service's revocation feed for the gateway's client: {@code ready}, then a heartbeat every
     * 250 ms; the tests send events through {@code POST /__stub/feed/event?name=} (body: the data),
     * cut every feed and refuse new ones with {@code POST /__stub/feed/refuse}, allow them again with
     * {@code POST /__stub/feed/allow}, and count them at {@code GET /__stub/feed/followers}.
     */
    private boolean feedControl(io.vertx.core.http.HttpServerRequest request) {
        String path = request.path();
        if (path.equals("/internal/revocation-feed")) {
            if (!GATEWAY_BASIC.equals(request.getHeader("Authorization"))) {
                request.response().setStatusCode(401).end();
            } else if (feedRefused) {
                request.response().setStatusCode(503).end();
            } else {
                var response = request.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
                feeds.add(response);
                response.write("event: ready\ndata:\n\n");
                long timer = vertx.setPeriodic(250, t -> response.write("event: heartbeat\ndata:\n\n"));
                response.closeHandler(v -> {
                    vertx.cancelTimer(timer);
                    feeds.remove(response);
                });
            }
            return true;
        }
        if (path.equals("/__stub/feed/event")) {
            String name = request.getParam("name");
            request.body().onSuccess(body -> {
                feeds.forEach(feed -> feed.write("event: " + name + "\ndata: " + body + "\n\n"));
                request.response().setStatusCode(204).end();
            });
            return true;
        }
        if (path.equals("/__stub/feed/refuse")) {
            feedRefused = true;
            feeds.forEach(feed -> feed.reset());
            request.response().setStatusCode(204).end();
            return true;
        }
        if (path.equals("/__stub/feed/allow")) {
            feedRefused = false;
            request.response().setStatusCode(204).end();
            return true;
        }
        if (path.equals("/__stub/feed/followers")) {
            request.response().end(Integer.toString(feeds.size()));
            return true;
        }
        return false;
    }

    /** Each stand-in's own OpenAPI document: a shared Problem, and two different Person schemas. */
    public static String openApi(String service) {
        String problem = "\"Problem\":{\"type\":\"object\",\"properties\":{\"status\":{\"type\":\"integer\"}}}";
        return switch (service) {
            case PublicRoutes.AUTH -> "{\"openapi\":\"3.0.3\",\"paths\":{\"/oauth/token\":{\"post\":{\"summary\":\"Token\","
                    + "\"responses\":{\"200\":{}}}}},\"components\":{\"schemas\":{" + problem + "}}}";
            case PublicRoutes.DIRECTORY -> "{\"openapi\":\"3.0.3\",\"paths\":{\"/people/{username}\":{\"get\":{\"parameters\":"
                    + "[{\"name\":\"username\",\"in\":\"path\",\"required\":true,\"schema\":{\"type\":\"string\"}}],"
                    + "\"responses\":{\"200\":{\"content\":{\"application/json\":{\"schema\":{\"$ref\":\"#/components/schemas/Person\"}}}}}}},"
                    + "\"/internal/people\":{\"get\":{\"responses\":{\"200\":{}}}}},"
                    + "\"components\":{\"schemas\":{" + problem + ",\"PasswordCheck\":{\"type\":\"object\"},"
                    + "\"Person\":{\"type\":\"object\",\"properties\":{\"username\":{\"type\":\"string\"},"
                    + "\"home\":{\"$ref\":\"#/components/schemas/Place\"}}},\"Place\":{\"type\":\"object\"}}}}";
            case PublicRoutes.EVENTS -> "{\"openapi\":\"3.0.3\",\"paths\":{\"/{namespace}/repositories/{repository}/data/events\":"
                    + "{\"get\":{\"responses\":{\"200\":{}}}}}}";
            default -> "{\"openapi\":\"3.0.3\",\"paths\":{\"/{namespace}/vocab/schemes\":{\"get\":{\"responses\":{\"200\":"
                    + "{\"content\":{\"application/json\":{\"schema\":{\"$ref\":\"#/components/schemas/Person\"}}}}}}}},"
                    + "\"components\":{\"schemas\":{\"Person\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}}}}}}";
        };
    }

    public static Buffer bigBody() {
        byte[] bytes = new byte[BIG_BODY_BYTES];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 31 + (i >> 8));
        }
        return Buffer.buffer(bytes);
    }

    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void stop() {
        if (vertx != null) {
            vertx.close();
        }
    }
}
