package org.ziggurat.platform.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * A webhook receiver for tests: a real HTTP server on 127.0.0.1 that keeps every request it gets
 * and answers as the test says ({@link #answer}), and the Standard Webhooks check a receiver makes
 * ({@link #verify}), written here from the specification, not taken from the code under test.
 */
public final class WebhookReceiver implements AutoCloseable {

    /** A request as received. */
    public record Received(String path, Map<String, List<String>> headers, byte[] body, Instant at) {
        public String header(String name) {
            for (Map.Entry<String, List<String>> h : headers.entrySet()) {
                if (h.getKey() != null && h.getKey().equalsIgnoreCase(name)) {
                    return h.getValue().isEmpty() ? null : h.getValue().get(0);
                }
            }
            return null;
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /** What to answer: a status, a body, and how long to wait before answering. */
    public record Answer(int status, String body, Duration delay, Map<String, String> headers) {
        public static Answer status(int status) {
            return new Answer(status, "", Duration.ZERO, Map.of());
        }
    }

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private volatile Function<Received, Answer> answer = r -> new Answer(200, "thanks", Duration.ZERO, Map.of());

    public WebhookReceiver() {
        this(0);
    }

    /** On {@code port} (0: any free one): a receiver that comes back after an outage listens where it did. */
    public WebhookReceiver(int port) {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 50);
        } catch (IOException e) {
            throw new IllegalStateException("cannot listen", e);
        }
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", this::handle);
        server.start();
    }

    public WebhookReceiver answering(Function<Received, Answer> answer) {
        this.answer = answer;
        return this;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    public List<Received> received() {
        return new ArrayList<>(received);
    }

    public List<Received> received(String path) {
        return received.stream().filter(r -> r.path().equals(path)).toList();
    }

    private void handle(HttpExchange exchange) throws IOException {
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readAllBytes();
        }
        Received r = new Received(exchange.getRequestURI().getPath(), Map.copyOf(exchange.getRequestHeaders()), body, Instant.now());
        received.add(r);
        Answer a = answer.apply(r);
        if (!a.delay().isZero()) {
            try {
                Thread.sleep(a.delay().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        byte[] out = a.body().getBytes(StandardCharsets.UTF_8);
        a.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
        try {
            exchange.sendResponseHeaders(a.status(), out.length == 0 ? -1 : out.length);
            if (out.length > 0) {
                try (OutputStream o = exchange.getResponseBody()) {
                    o.write(out);
                }
            }
        } catch (IOException e) {
            // The sender gave up (its timeout): nothing to answer.
        } finally {
            exchange.close();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /**
     * The Standard Webhooks check: the timestamp within five minutes of now, and among the
     * space-separated {@code v1,} signatures one equal (in constant time) to the base64
     * HMAC-SHA256 of {@code id.timestamp.body} under the secret's bytes (after {@code whsec_}).
     * What it refuses, it says why.
     */
    public static void verify(Received r, String secret) {
        String id = r.header("webhook-id");
        String timestamp = r.header("webhook-timestamp");
        String signatures = r.header("webhook-signature");
        if (id == null || timestamp == null || signatures == null) {
            throw new AssertionError("missing webhook-id, webhook-timestamp or webhook-signature");
        }
        long sent = Long.parseLong(timestamp);
        if (Math.abs(Instant.now().getEpochSecond() - sent) > 300) {
            throw new AssertionError("timestamp outside the tolerance: " + timestamp);
        }
        byte[] expected;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring("whsec_".length())), "HmacSHA256"));
            mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
            expected = Base64.getEncoder().encode(mac.doFinal(r.body()));
        } catch (Exception e) {
            throw new AssertionError("cannot compute the signature", e);
        }
        for (String signature : signatures.split(" ")) {
            int comma = signature.indexOf(',');
            if (comma > 0 && signature.substring(0, comma).equals("v1")
                    && MessageDigest.isEqual(expected, signature.substring(comma + 1).getBytes(StandardCharsets.US_ASCII))) {
                return;
            }
        }
        throw new AssertionError("no signature verifies under the secret: " + signatures);
    }
}
