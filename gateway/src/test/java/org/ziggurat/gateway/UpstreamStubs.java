package org.ziggurat.gateway;

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
 * {@code /.../big}. events-service points at a port where nothing listens.
 */
public class UpstreamStubs implements QuarkusTestResourceLifecycleManager {

    public static final int BIG_BODY_BYTES = 3 * 1024 * 1024 + 17;

    private Vertx vertx;

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
