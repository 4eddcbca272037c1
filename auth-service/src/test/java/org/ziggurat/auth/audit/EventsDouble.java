package org.ziggurat.auth.audit;

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
 * events-service's {@code POST /internal/audit-events} as auth-service sees it: auth-service's own
 * token only (as there), 204, and what it was told kept in order. An event whose body holds one of
 * the words in {@link #REFUSE} is answered 503 (kept in {@link #REFUSED}).
 */
public class EventsDouble implements QuarkusTestResourceLifecycleManager {

    public static final List<JsonObject> AUDIT = new CopyOnWriteArrayList<>();
    public static final Set<String> REFUSE = ConcurrentHashMap.newKeySet();
    public static final List<JsonObject> REFUSED = new CopyOnWriteArrayList<>();

    private Vertx vertx;

    @Override
    public Map<String, String> start() {
        vertx = Vertx.vertx();
        try {
            int port = vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(raw -> {
                int refusal = InternalCallers.refusal(request.getHeader("X-Platform-Token"), "auth-service");
                if (refusal != 0) {
                    request.response().setStatusCode(refusal).end();
                } else if (request.path().equals("/internal/audit-events") && request.method().name().equals("POST")
                        && REFUSE.stream().anyMatch(raw.toString()::contains)) {
                    REFUSED.add(raw.toJsonObject());
                    request.response().setStatusCode(503).end();
                } else if (request.path().equals("/internal/audit-events") && request.method().name().equals("POST")) {
                    AUDIT.add(raw.toJsonObject());
                    request.response().setStatusCode(204).end();
                } else {
                    request.response().setStatusCode(404).end();
                }
            })).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
            return Map.of("ziggurat.auth.audit.events-url", "http://127.0.0.1:" + port, "ziggurat.auth.audit.poll", "200ms",
                    "ziggurat.auth.audit.first-retry", "300ms", "ziggurat.auth.audit.longest-retry", "1s");
        } catch (Exception e) {
            throw new IllegalStateException("the events double did not start", e);
        }
    }

    @Override
    public void stop() {
        if (vertx != null) {
            vertx.close();
        }
    }
}
