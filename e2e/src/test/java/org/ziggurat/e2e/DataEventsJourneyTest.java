package org.ziggurat.e2e;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.e2e.Platform.anonymous;
import static org.ziggurat.e2e.Platform.as;

/** Data events posted to a repository, read back, and streamed as they happen. */
class DataEventsJourneyTest {

    @Test
    void eventsArePostedListedAndStreamed() throws Exception {
        Platform.Person ada = Platform.signUp("ada");
        String token = Platform.accessToken(ada, "user", "write");
        String path = "/" + ada.username() + "/repositories/notebook/data/events";

        int first = as(token).contentType("application/json").body(Map.of("note", "first notes"))
                .post(path).then().statusCode(201).body("kind", equalTo("API-Request")).extract().path("id");

        // Open the stream through the gateway, then append: the new event arrives on it.
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpResponse<java.io.InputStream> stream = http.send(HttpRequest.newBuilder(URI.create(Platform.api() + path + "/stream"))
                .header("Accept", "text/event-stream").build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, stream.statusCode());
        java.util.concurrent.CountDownLatch open = new java.util.concurrent.CountDownLatch(1);
        CompletableFuture<String> received = CompletableFuture.supplyAsync(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    if (line.startsWith(":")) {
                        open.countDown(); // the stream's opening comment: it is subscribed
                    }
                    if (line.startsWith("data:") && line.contains("uploaded a file")) {
                        return line;
                    }
                }
                return null;
            } catch (Exception e) {
                return "failed: " + e;
            }
        });
        assertTrue(open.await(10, TimeUnit.SECONDS), "the stream never opened");
        int second = as(token).contentType("application/json").body(Map.of("kind", "FileUpload", "note", "uploaded a file"))
                .post(path).then().statusCode(201).extract().path("id");
        String event = received.get(15, TimeUnit.SECONDS);
        stream.body().close();
        assertTrue(event != null && event.contains("\"id\":" + second), "the stream did not carry the event: " + event);

        anonymous().get(path).then().statusCode(200).body("id", contains(second, first));
        anonymous().get(path + "/" + first).then().statusCode(200).body("note", equalTo("first notes"))
                .body("creator.username", equalTo(ada.username()));
    }

    /**
     * Large changesets do not stall the service: four events that each replace an array of 24,000
     * numbers by another (zjsonpatch alone: seconds of one event loop each) are computed on the
     * changesets' own pool, never on an event loop, as both events-service replicas' pool metrics
     * count, and pages of another repository are answered meanwhile. How long those pages took is
     * logged for the record, not asserted: on a busy machine a page can take seconds for want of CPU
     * alone (4.3 s at a load average of 30), which says nothing about where the changesets ran.
     */
    @Test
    void largeChangesetsDoNotDelayOtherRequests() throws Exception {
        Platform.Person ada = Platform.signUp("ada");
        String token = Platform.accessToken(ada, "user", "write");
        String big = "/" + ada.username() + "/repositories/big/data/events";
        String notes = "/" + ada.username() + "/repositories/notes/data/events";
        for (int i = 0; i < 3; i++) {
            as(token).contentType("application/json").body(Map.of("note", "note " + i)).post(notes).then().statusCode(201);
        }
        int items = 4;
        for (int item = 0; item < items; item++) {
            as(token).contentType("application/json").body(rows("item-" + item, 0)).post(big).then().statusCode(201);
        }
        double computedBefore = changesetsComputed();
        java.util.concurrent.ExecutorService writers = java.util.concurrent.Executors.newFixedThreadPool(items);
        java.util.List<java.util.concurrent.Future<Long>> writes = new java.util.ArrayList<>();
        long started = System.nanoTime();
        for (int item = 0; item < items; item++) {
            Map<String, Object> body = rows("item-" + item, 1_000_000);
            writes.add(writers.submit(() -> {
                long t0 = System.nanoTime();
                as(token).contentType("application/json").body(body).post(big).then().statusCode(201);
                return (System.nanoTime() - t0) / 1_000_000;
            }));
        }
        java.util.List<Long> pages = new java.util.ArrayList<>();
        while (writes.stream().anyMatch(f -> !f.isDone()) && System.nanoTime() - started < 120_000_000_000L) {
            long t0 = System.nanoTime();
            anonymous().get(notes).then().statusCode(200);
            pages.add((System.nanoTime() - t0) / 1_000_000);
        }
        writers.shutdown();
        java.util.List<Long> writeTimes = new java.util.ArrayList<>();
        for (var write : writes) {
            writeTimes.add(write.get(1, TimeUnit.SECONDS)); // a failed write fails here
        }
        long slowestPage = pages.stream().mapToLong(Long::longValue).max().orElse(0);
        java.util.logging.Logger.getLogger(getClass().getName()).info("large changesets: writes " + writeTimes
                + " ms; " + pages.size() + " pages meanwhile, slowest " + slowestPage + " ms");
        assertTrue(changesetsComputed() - computedBefore >= items, "the large changesets ran on the changesets' pool");
        assertTrue(!pages.isEmpty(), "pages were answered while the changesets were computed");
    }

    /**
     * How many tasks the changesets' worker pool has run, on both events-service replicas (Micrometer's
     * Vert.x pool metrics, {@code pool_name="changesets"}).
     */
    static double changesetsComputed() throws Exception {
        double sum = 0;
        for (String instance : java.util.List.of("events-service", "events-service-2")) {
            String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                    Stack.get().instanceUrl(instance) + "/q/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
            sum += metrics.lines().filter(line -> line.contains("pool_name=\"changesets\"") && !line.startsWith("#")
                    && line.substring(0, line.indexOf('{')).endsWith("_completed_total"))
                    .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
        }
        return sum;
    }

    /** An event whose one commit sets an item's rows to 24,000 numbers from {@code from}. */
    static Map<String, Object> rows(String item, int from) {
        java.util.List<Integer> rows = new java.util.ArrayList<>();
        for (int i = 0; i < 24_000; i++) {
            rows.add(from + i);
        }
        return Map.of("note", "rows of " + item, "commits_attributes", java.util.List.of(Map.of("type", "Rows",
                "identifier", Map.of("id", item, "type", "Table", "agent", "e2e"), "payload", Map.of("rows", rows))));
    }
}
