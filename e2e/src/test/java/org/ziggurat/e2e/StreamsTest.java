package org.ziggurat.e2e;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.e2e.Platform.as;

/**
 * Event streams were authorized once, when they opened, and kept delivering after the token was
 * revoked or the membership removed. Now each ends with a last event that says why.
 */
class StreamsTest {

    /** An open stream through the gateway: its lines, and when it ended. */
    static final class Stream {
        final List<String> lines = new CopyOnWriteArrayList<>();
        final CountDownLatch open = new CountDownLatch(1);
        final CompletableFuture<Void> ended;

        Stream(String path, String token) throws Exception {
            HttpResponse<java.io.InputStream> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(Platform.api() + path)).header("Accept", "text/event-stream")
                    .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofInputStream());
            assertEquals(200, response.statusCode());
            ended = CompletableFuture.runAsync(() -> {
                try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = reader.readLine()) != null) {
                        lines.add(line);
                        open.countDown();
                    }
                } catch (java.io.IOException cut) {
                    // the connection was ended: the stream is over
                }
            });
            assertTrue(open.await(10, TimeUnit.SECONDS), "the stream never opened");
        }

        void assertEndsWith(String reason) throws Exception {
            ended.get(30, TimeUnit.SECONDS);
            assertTrue(lines.stream().anyMatch(l -> l.matches("event: ?stream_closed")), lines.toString());
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("data:") && l.contains("\"reason\":\"" + reason + "\"")),
                    lines.toString());
        }
    }

    @Test
    void aStreamEndsWhenItsTokenIsRevoked() throws Exception {
        Platform.Person ada = Platform.signUp("stream");
        String token = Platform.accessToken(ada, "user");
        Stream stream = new Stream("/" + ada.username() + "/repositories/r/data/events/stream", token);
        as(token).formParams(Map.of("token", token)).post("/oauth/revoke").then().statusCode(200);
        stream.assertEndsWith("token_inactive");
    }

    @Test
    void aStreamEndsWhenItsReaderLeavesThePrivateOrganization() throws Exception {
        Platform.Person ann = Platform.signUp("ann");
        Platform.Person bob = Platform.signUp("bob");
        String annToken = Platform.accessToken(ann, "user", "admin");
        String bobToken = Platform.accessToken(bob, "user", "admin");
        String name = "closed-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        int org = as(annToken).contentType("application/json").body(Map.of("name", name, "visibility", "private"))
                .post("/organizations").then().statusCode(201).extract().path("id");
        as(annToken).contentType("application/json").body(Map.of("role", "member"))
                .put("/organizations/" + org + "/memberships/" + bob.id()).then().statusCode(201);
        as(bobToken).contentType("application/json").body(Map.of("state", "active"))
                .patch("/user/memberships/organizations/" + org).then().statusCode(200);
        Stream stream = new Stream("/" + name + "/repositories/r/data/events/stream", bobToken);
        as(annToken).delete("/organizations/" + org + "/memberships/" + bob.id()).then().statusCode(204);
        stream.assertEndsWith("access_removed");
    }
}
