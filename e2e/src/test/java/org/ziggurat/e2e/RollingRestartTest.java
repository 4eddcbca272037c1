package org.ziggurat.e2e;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A rolling restart of every instance of every module, one at a time, as Kubernetes does it
 * (SIGTERM, then the same instance again), under a steady mix of reads and writes through the
 * public balancer. The clients retry what the API says to retry: a 503 (after its Retry-After),
 * and a request whose connection broke, when it is safe to send again (a read, or a write with an
 * Idempotency-Key). Nothing else may fail, and every acknowledged write must be stored.
 */
class RollingRestartTest {

    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    /** What the clients saw: final answers that were not successes, and how often they had to retry. */
    static final class Seen {
        final List<String> failures = Collections.synchronizedList(new ArrayList<>());
        final List<Long> acknowledged = Collections.synchronizedList(new ArrayList<>());
        final Map<String, AtomicInteger> retries = new ConcurrentHashMap<>();
        final AtomicInteger requests = new AtomicInteger();

        void retried(String why) {
            retries.computeIfAbsent(why, k -> new AtomicInteger()).incrementAndGet();
        }
    }

    @Test
    void aRollingRestartOfEverythingUnderLoadLosesNothing() throws Exception {
        Platform.Person ada = Platform.signUp("rolling");
        String token = Platform.accessToken(ada, "user", "write");
        String events = Platform.api() + "/" + ada.username() + "/repositories/rolling/data/events";
        Seen seen = new Seen();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService clients = Executors.newFixedThreadPool(4);
        List<Future<?>> running = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            running.add(clients.submit(() -> {
                while (!stop.get()) {
                    String key = UUID.randomUUID().toString();
                    HttpRequest write = HttpRequest.newBuilder(URI.create(events)).timeout(Duration.ofSeconds(20))
                            .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                            .header("Idempotency-Key", key)
                            .POST(HttpRequest.BodyPublishers.ofString("{\"note\":\"rolling " + key + "\"}")).build();
                    HttpResponse<String> answer = send(write, seen);
                    if (answer != null && answer.statusCode() == 201) {
                        seen.acknowledged.add(io.restassured.path.json.JsonPath.from(answer.body()).getLong("id"));
                    }
                }
                return null;
            }));
        }
        for (String read : List.of(Platform.api() + "/user", events)) {
            running.add(clients.submit(() -> {
                while (!stop.get()) {
                    send(HttpRequest.newBuilder(URI.create(read)).timeout(Duration.ofSeconds(20))
                            .header("Authorization", "Bearer " + token).GET().build(), seen);
                }
                return null;
            }));
        }
        awaitWrites(seen, 20, "the load does not flow");
        int restarted = 0;
        long started = System.nanoTime();
        for (String module : List.of("directory-service", "auth-service", "vocab-service", "events-service", "gateway")) {
            for (String instance : Stack.instancesOf(module)) {
                Stack.get().restartGracefully(instance);
                restarted++;
            }
        }
        long took = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        awaitWrites(seen, 20, "writes do not go on after the restarts");
        stop.set(true);
        clients.shutdown();
        assertTrue(clients.awaitTermination(60, TimeUnit.SECONDS), "the clients did not stop");
        for (Future<?> client : running) {
            client.get();
        }
        System.out.printf("Rolling restart: %d instances restarted one at a time in %d s; %d requests, %d writes "
                + "acknowledged, retries %s, failures %d%n", restarted, took, seen.requests.get(), seen.acknowledged.size(),
                seen.retries, seen.failures.size());
        assertTrue(seen.failures.isEmpty(), "answers that failed after the retries the API allows: " + seen.failures);
        assertTrue(seen.acknowledged.size() > 20, "too little load: " + seen.acknowledged.size());
        FaultsTest.assertAllStored(seen.acknowledged);
    }

    /** Waits (at most 60 s) until {@code more} further writes have been acknowledged. */
    static void awaitWrites(Seen seen, int more, String failure) throws InterruptedException {
        int target = seen.acknowledged.size() + more;
        long deadline = System.currentTimeMillis() + 60_000;
        while (seen.acknowledged.size() < target && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        assertTrue(seen.acknowledged.size() >= target, failure + ": " + seen.acknowledged.size() + " " + seen.failures);
    }

    /**
     * One request, retried as the API says: after a 503's Retry-After, and when the connection
     * broke (the request is a read, or a write with an Idempotency-Key). At most 60 tries.
     */
    static HttpResponse<String> send(HttpRequest request, Seen seen) throws InterruptedException {
        for (int attempt = 0; attempt < 60; attempt++) {
            seen.requests.incrementAndGet();
            try {
                HttpResponse<String> answer = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() == 503) {
                    seen.retried("503");
                    long wait = answer.headers().firstValue("Retry-After").map(Long::parseLong).orElse(1L);
                    Thread.sleep(Math.min(wait, 2) * 1000);
                    continue;
                }
                if (answer.statusCode() >= 400) {
                    seen.failures.add(request.method() + " " + request.uri().getPath() + " " + answer.statusCode() + " "
                            + answer.body());
                }
                return answer;
            } catch (IOException broken) {
                seen.retried("broken connection");
                Thread.sleep(200);
            }
        }
        seen.failures.add(request.method() + " " + request.uri().getPath() + ": no answer after 60 tries");
        return null;
    }
}
