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
}
