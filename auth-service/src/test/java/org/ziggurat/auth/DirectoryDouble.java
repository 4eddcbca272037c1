package org.ziggurat.auth;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A test double of directory-service's password check, true to its HTTP contract
 * ({@code POST /internal/passwords/verify}): a platform token is required; known people answer
 * 200 {user_id, username}; a wrong password 401; the login {@value #THROTTLED} 429 with Retry-After.
 */
public class DirectoryDouble implements QuarkusTestResourceLifecycleManager {

    public static final String THROTTLED = "throttled-person";
    public static final Map<String, Person> PEOPLE = Map.of(
            "alice", new Person(101, "alice", "alice password 1"),
            "bob", new Person(102, "bob", "bob password 12"));

    public record Person(long id, String username, String password) {
    }

    private Vertx vertx;

    @Override
    public Map<String, String> start() {
        vertx = Vertx.vertx();
        try {
            int port = vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
                if (!request.path().equals("/internal/passwords/verify") || request.getHeader("X-Platform-Token") == null) {
                    request.response().setStatusCode(request.getHeader("X-Platform-Token") == null ? 401 : 404).end();
                    return;
                }
                JsonObject check = body.toJsonObject();
                String login = check.getString("login");
                if (THROTTLED.equals(login)) {
                    request.response().setStatusCode(429).putHeader("Retry-After", "30").end();
                    return;
                }
                Person person = PEOPLE.values().stream()
                        .filter(p -> p.username().equalsIgnoreCase(login) || (p.username() + "@example.org").equalsIgnoreCase(login))
                        .findFirst().orElse(null);
                if (person == null || !person.password().equals(check.getString("password"))) {
                    request.response().setStatusCode(401).putHeader("Content-Type", "application/problem+json")
                            .end("{\"status\":401}");
                    return;
                }
                request.response().putHeader("Content-Type", "application/json")
                        .end(new JsonObject().put("user_id", person.id()).put("username", person.username()).encode());
            })).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
            return Map.of("quarkus.rest-client.directory.url", "http://127.0.0.1:" + port);
        } catch (Exception e) {
            throw new IllegalStateException("Cannot start the directory double", e);
        }
    }

    @Override
    public void stop() {
        if (vertx != null) {
            vertx.close();
        }
    }
}
