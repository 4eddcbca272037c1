package org.ziggurat.e2e;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.e2e.Platform.as;

/**
 * Promises that cross replicas, between the instance the gateway uses and a second instance of
 * the same service, both behind PgBouncer in transaction mode (as in production): each replica
 * keeps state in memory that a change made through the other must reach through PostgreSQL's
 * notifications, which a LISTEN made through the pooler never receives.
 */
class ReplicasTest {

    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** RFC 7662 at one auth-service instance, as the gateway asks (its own client). */
    static boolean active(String instance, String token) throws Exception {
        String basic = Base64.getEncoder().encodeToString(("ziggurat-gateway:" + Stack.get().gatewayClientSecret)
                .getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(Stack.get().instanceUrl(instance)
                        + "/oauth/introspect")).header("Authorization", "Basic " + basic)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("token=" + token)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), answer.body());
        return answer.body().replace(" ", "").contains("\"active\":true");
    }

    @Test
    void aTokenRevokedThroughOneReplicaIsInactiveAtTheOtherWithinASecond() throws Exception {
        Platform.Person ada = Platform.signUp("replica");
        String token = Platform.accessToken(ada, "user");
        // Both replicas have the token live in memory (introspection keeps what it read).
        assertTrue(active("auth-service", token));
        assertTrue(active("auth-service-2", token));
        assertTrue(active("auth-service-2", token));

        // Revoked through the gateway, which reaches the first instance.
        as(token).formParam("token", token).post("/oauth/revoke").then().statusCode(200);
        long revokedAt = System.nanoTime();
        assertTrue(!active("auth-service", token), "the replica that revoked it");
        long deadline = revokedAt + TimeUnit.SECONDS.toNanos(1);
        boolean stillActive = true;
        while (stillActive && System.nanoTime() < deadline) {
            stillActive = active("auth-service-2", token);
            if (stillActive) {
                Thread.sleep(20);
            }
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - revokedAt);
        System.out.printf("Replicas: a revocation reached the other auth-service instance in %d ms%n", millis);
        assertTrue(!stillActive, "the other replica still called the revoked token active after " + millis + " ms");
    }

    @Test
    void anEventAppendedThroughOneReplicaReachesAStreamOfTheOtherWithinASecond() throws Exception {
        Platform.Person ada = Platform.signUp("replica");
        String token = Platform.accessToken(ada, "write");
        String path = "/" + ada.username() + "/repositories/notes/data/events";
        // The stream is read straight at the second instance (anonymous: the namespace is public).
        HttpResponse<InputStream> stream = HTTP.send(HttpRequest.newBuilder(URI.create(Stack.get().instanceUrl(
                        "events-service-2") + path + "/stream")).header("Accept", "text/event-stream").build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, stream.statusCode());
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
            CompletableFuture<Long> heard = CompletableFuture.supplyAsync(() -> {
                try {
                    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                        if (line.startsWith("data:") && line.contains("across replicas")) {
                            return System.nanoTime();
                        }
                    }
                    return -1L;
                } catch (java.io.IOException e) {
                    return -1L;
                }
            });
            Thread.sleep(300); // the stream has subscribed
            // Appended through the gateway, which reaches the first instance. The time counts from
            // before the request: the other stream may hear it before the answer arrives.
            long sentAt = System.nanoTime();
            as(token).contentType("application/json").body(Map.of("note", "across replicas")).post(path).then().statusCode(201);
            Long at = heard.get(5, TimeUnit.SECONDS);
            long millis = TimeUnit.NANOSECONDS.toMillis(at - sentAt);
            System.out.printf("Replicas: an event appended through one events-service instance reached a stream of the "
                    + "other %d ms after the request was sent%n", millis);
            assertTrue(at > 0 && millis < 1000, "the other replica's stream heard it after " + millis + " ms");
        } finally {
            stream.body().close();
        }
    }
}
