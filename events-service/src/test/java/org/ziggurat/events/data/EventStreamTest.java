package org.ziggurat.events.data;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.TestTokens;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.platform.testing.NamespaceDirectoryDouble.ALICE;

/** Server-sent events of new data events, and a client that reconnects with Last-Event-ID and misses nothing. */
@QuarkusTest
class EventStreamTest {

    @TestHTTPResource("/")
    URL base;

    /** A streaming client: the ids of the events it has read, in order. */
    static final class Listener implements AutoCloseable {
        final List<Long> ids = new CopyOnWriteArrayList<>();
        final List<String> data = new CopyOnWriteArrayList<>();
        final List<String> names = new CopyOnWriteArrayList<>();
        final java.util.concurrent.CountDownLatch ended = new java.util.concurrent.CountDownLatch(1);
        private final Stream<String> lines;
        final int status;

        Listener(URI uri, String lastEventId) throws Exception {
            this(uri, lastEventId, null);
        }

        Listener(URI uri, String lastEventId, String platformToken) throws Exception {
            HttpRequest.Builder request = HttpRequest.newBuilder(uri).header("Accept", "text/event-stream");
            if (platformToken != null) {
                request.header("X-Platform-Token", platformToken);
            }
            // No timeout on a stream that is meant to stay open; opening it is bounded below.
            if (lastEventId != null) {
                request.header("Last-Event-ID", lastEventId);
            }
            HttpResponse<Stream<String>> response = HttpClient.newHttpClient()
                    .sendAsync(request.build(), HttpResponse.BodyHandlers.ofLines()).get(10, java.util.concurrent.TimeUnit.SECONDS);
            status = response.statusCode();
            lines = response.body();
            Thread reader = new Thread(() -> {
                try {
                    lines.forEach(line -> {
                        if (line.startsWith("id:")) {
                            ids.add(Long.parseLong(line.substring(3).trim()));
                        } else if (line.startsWith("data:")) {
                            data.add(line.substring(5).trim());
                        } else if (line.startsWith("event:")) {
                            names.add(line.substring(6).trim());
                        }
                    });
                    ended.countDown(); // the server ended the stream
                } catch (RuntimeException closed) {
                    // the test closed the stream
                }
            });
            reader.setDaemon(true);
            reader.start();
        }

        @Override
        public void close() {
            lines.close();
        }
    }

    private long post(String path, String note) {
        return ((Number) given().header("X-Platform-Token", TestTokens.user(ALICE, "alice", "write"))
                .contentType("application/json").body(Map.of("note", note)).post(path)
                .then().statusCode(201).extract().path("id")).longValue();
    }

    @Test
    void aReconnectingClientMissesNothing() throws Exception {
        String path = "/alice/repositories/stream-" + UUID.randomUUID().toString().substring(0, 8) + "/data/events";
        URI stream = URI.create(base.toString().replaceAll("/$", "") + path + "/stream");
        long first;
        long second;
        try (Listener listener = new Listener(stream, null)) {
            assertEquals(200, listener.status);
            first = post(path, "one");
            second = post(path, "two");
            await().atMost(Duration.ofSeconds(15)).until(() -> listener.ids.size() >= 2);
            assertEquals(List.of(first, second), listener.ids);
            org.junit.jupiter.api.Assertions.assertTrue(listener.data.get(0).contains("\"note\":\"one\""), listener.data.get(0));
        }
        // Written while nobody listened.
        long third = post(path, "three");
        long fourth = post(path, "four");
        try (Listener again = new Listener(stream, Long.toString(second))) {
            await().atMost(Duration.ofSeconds(15)).until(() -> again.ids.size() >= 2);
            long fifth = post(path, "five");
            await().atMost(Duration.ofSeconds(15)).until(() -> again.ids.size() >= 3);
            assertEquals(List.of(third, fourth, fifth), again.ids);
        }
    }

    /**
     * A stream is not authorized once for ever: when its reader stops being a member of the
     * private organization, the stream sends a last event saying why, and ends.
     */
    @Test
    void aStreamEndsWhenItsReaderLosesAccess() throws Exception {
        org.ziggurat.platform.testing.NamespaceDirectoryDouble.join(org.ziggurat.platform.testing.NamespaceDirectoryDouble.BOB);
        URI stream = URI.create(base.toString().replaceAll("/$", "") + "/studio/repositories/plans/data/events/stream");
        try (Listener listener = new Listener(stream, null, TestTokens.user(
                org.ziggurat.platform.testing.NamespaceDirectoryDouble.BOB, "bob", "public"))) {
            assertEquals(200, listener.status);
            // Still a member: the stream stays open past several checks.
            assertFalse(listener.ended.await(3, java.util.concurrent.TimeUnit.SECONDS), "the stream ended for a member");
            org.ziggurat.platform.testing.NamespaceDirectoryDouble.leave(org.ziggurat.platform.testing.NamespaceDirectoryDouble.BOB);
            assertTrue(listener.ended.await(20, java.util.concurrent.TimeUnit.SECONDS), "the stream outlived the membership");
            assertEquals(List.of("stream_closed"), listener.names);
            assertTrue(listener.data.get(listener.data.size() - 1).contains("\"reason\":\"access_removed\""), listener.data.toString());
        } finally {
            org.ziggurat.platform.testing.NamespaceDirectoryDouble.leave(org.ziggurat.platform.testing.NamespaceDirectoryDouble.BOB);
        }
    }

    @Test
    void privateStreamsAreHiddenFromOutsiders() throws Exception {
        URI stream = URI.create(base.toString().replaceAll("/$", "") + "/vault/repositories/anything/data/events/stream");
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(stream)
                .header("Accept", "text/event-stream").timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(404, response.statusCode());
        HttpResponse<String> bad = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(stream.toString()
                .replace("vault", "alice"))).header("Last-Event-ID", "abc").timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(400, bad.statusCode());
    }
}
