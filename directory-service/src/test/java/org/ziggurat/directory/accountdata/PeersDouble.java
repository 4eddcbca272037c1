package org.ziggurat.directory.accountdata;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.ziggurat.platform.testing.InternalCallers;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * auth-, vocab- and events-service as the directory sees them for exports and erasures: each
 * under its own path prefix, answering only directory-service's own token (as they do), its part
 * of an export, 204 to an erasure, and (events-service) 204 to an audit event, which it records. A
 * peer named in {@link #AWAY} answers 503, and so does events-service to an audit event whose body
 * holds one of the words in {@link #REFUSE} (kept in {@link #REFUSED}).
 */
public class PeersDouble implements QuarkusTestResourceLifecycleManager {

    /** An erasure a peer received. */
    public record Received(String peer, long personId, String username) {
    }

    public static final List<Received> ERASURES = new CopyOnWriteArrayList<>();
    /** The people whose sign-ins a peer was told to end, in order. */
    public static final List<Long> SIGN_OUTS = new CopyOnWriteArrayList<>();
    public static final Set<String> AWAY = ConcurrentHashMap.newKeySet();
    /** The audit events events-service was told of, as told (perhaps twice: it records each once). */
    public static final List<JsonObject> AUDIT = new CopyOnWriteArrayList<>();
    public static final Set<String> REFUSE = ConcurrentHashMap.newKeySet();
    public static final List<JsonObject> REFUSED = new CopyOnWriteArrayList<>();

    private Vertx vertx;

    @Override
    public Map<String, String> start() {
        vertx = Vertx.vertx();
        try {
            int port = vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(raw -> {
                String[] parts = request.path().split("/", 3);
                String peer = parts.length > 1 ? parts[1] + "-service" : "";
                String path = parts.length > 2 ? "/" + parts[2] : "";
                int refusal = InternalCallers.refusal(request.getHeader("X-Platform-Token"), "directory-service");
                if (refusal != 0) {
                    request.response().setStatusCode(refusal).end();
                } else if (AWAY.contains(peer)) {
                    request.response().setStatusCode(503).end();
                } else if (path.matches("/internal/people/\\d+/export") && request.method().name().equals("GET")) {
                    request.response().putHeader("Content-Type", "application/json").end(new JsonObject().put("peer", peer)
                            .put("person_id", Long.parseLong(path.split("/")[3])).encode());
                } else if (path.equals("/internal/erasures") && request.method().name().equals("POST")) {
                    JsonObject body = raw.toJsonObject();
                    ERASURES.add(new Received(peer, body.getLong("person_id"), body.getString("username")));
                    request.response().setStatusCode(204).end();
                } else if (path.equals("/internal/audit-events") && peer.equals("events-service")
                        && request.method().name().equals("POST") && REFUSE.stream().anyMatch(raw.toString()::contains)) {
                    REFUSED.add(raw.toJsonObject());
                    request.response().setStatusCode(503).end();
                } else if (path.equals("/internal/audit-events") && peer.equals("events-service")
                        && request.method().name().equals("POST")) {
                    AUDIT.add(raw.toJsonObject());
                    request.response().setStatusCode(204).end();
                } else if (path.equals("/internal/sign-outs") && peer.equals("auth-service")
                        && request.method().name().equals("POST")) {
                    SIGN_OUTS.add(raw.toJsonObject().getLong("person_id"));
                    request.response().setStatusCode(204).end();
                } else {
                    request.response().setStatusCode(404).end();
                }
            })).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
            String base = "http://127.0.0.1:" + port;
            return Map.of("ziggurat.directory.peers.auth-url", base + "/auth",
                    "ziggurat.directory.peers.vocab-url", base + "/vocab",
                    "ziggurat.directory.peers.events-url", base + "/events",
                    "ziggurat.directory.peers.poll", "200ms",
                    "ziggurat.directory.peers.first-retry", "300ms",
                    "ziggurat.directory.peers.longest-retry", "1s");
        } catch (Exception e) {
            throw new IllegalStateException("the peers double did not start", e);
        }
    }

    @Override
    public void stop() {
        if (vertx != null) {
            vertx.close();
        }
    }
}
