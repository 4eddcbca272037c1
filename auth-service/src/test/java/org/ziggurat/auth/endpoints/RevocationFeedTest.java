package org.ziggurat.auth.endpoints;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport.App;
import org.ziggurat.platform.testing.ServiceDatabase;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.OAuthTestSupport.GATEWAY_ID;
import static org.ziggurat.auth.OAuthTestSupport.GATEWAY_SECRET;
import static org.ziggurat.auth.OAuthTestSupport.OWNER_ID;
import static org.ziggurat.auth.OAuthTestSupport.asPerson;
import static org.ziggurat.auth.OAuthTestSupport.aliceTokens;
import static org.ziggurat.auth.OAuthTestSupport.createApp;
import static org.ziggurat.auth.OAuthTestSupport.introspect;
import static org.ziggurat.auth.OAuthTestSupport.post;

/**
 * The revocation feed the gateway replicas follow: the gateway's introspection answers name each
 * access token as the feed does, and a revocation by any statement (the revocation endpoint, SQL
 * behind the service's back) reaches the feed's followers; nobody else may follow it.
 */
@QuarkusTest
class RevocationFeedTest {

    /** What {@link #follow} adds when the stream ends. */
    private static final String ENDED = "(ended)";

    /** Generous: a busy machine must not decide the result; the events come in milliseconds. */
    private static final long WAIT_SECONDS = 30;

    private final List<CompletableFuture<?>> open = new ArrayList<>();

    @AfterEach
    void closeFeeds() {
        open.forEach(f -> f.cancel(true));
    }

    @Test
    void aRevocationAtTheEndpointAndOneBySqlReachTheFeed() throws Exception {
        BlockingQueue<String[]> events = follow(basic(GATEWAY_ID, GATEWAY_SECRET));
        App app = createApp(true, "public user");
        String byEndpoint = (String) aliceTokens(app, "user").get("access_token");
        String bySql = (String) aliceTokens(app, "user").get("access_token");
        String kept = (String) aliceTokens(app, "user").get("access_token");
        String endpointRef = introspect(byEndpoint).body("active", equalTo(true)).extract().path("revocation_ref");
        String sqlRef = introspect(bySql).extract().path("revocation_ref");
        String keptRef = introspect(kept).extract().path("revocation_ref");
        assertNotNull(endpointRef, "the gateway's answer names the token as the feed does");
        assertTrue(endpointRef.matches("[0-9a-f]{16}"), endpointRef);
        // Another client's introspection does not carry it: only the gateway matches the feed.
        post("/oauth/introspect", app, "token", byEndpoint).body("active", equalTo(true)).body("revocation_ref", nullValue());

        post("/oauth/revoke", app, "token", byEndpoint).statusCode(200);
        awaitChanged(events, endpointRef, keptRef);
        try (Connection c = ServiceDatabase.connect()) {
            c.createStatement().execute("UPDATE auth.token SET revoked_at = now() WHERE kind = 'a' AND application_id = "
                    + app.id() + " AND revoked_at IS NULL AND id = (SELECT min(id) FROM auth.token WHERE kind = 'a' "
                    + "AND application_id = " + app.id() + " AND revoked_at IS NULL)");
        }
        awaitChanged(events, sqlRef, keptRef);
        introspect(kept).body("active", equalTo(true));
    }

    @Test
    void theFeedStartsReadyAndBeatsEverySecond() throws Exception {
        BlockingQueue<String[]> events = follow(basic(GATEWAY_ID, GATEWAY_SECRET));
        String[] heartbeat;
        do {
            heartbeat = events.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            assertNotNull(heartbeat, "a heartbeat");
        } while (!heartbeat[0].equals("heartbeat"));
    }

    /**
     * Notifications sent while this replica does not listen are lost: its followers must know, so
     * their streams end, and a new one starts only once it listens again.
     */
    @Test
    void theStreamsEndWhenTheServiceStopsListening() throws Exception {
        BlockingQueue<String[]> events = follow(basic(GATEWAY_ID, GATEWAY_SECRET));
        try (Connection c = ServiceDatabase.connect()) {
            c.createStatement().execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    + "WHERE application_name = 'auth-service-revocation-feed' AND datname = current_database()");
        }
        String[] event;
        do {
            event = events.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            assertNotNull(event, "the stream ends");
        } while (!event[0].equals(ENDED));
        // It listens again by itself; then a new stream starts with ready (follow() asserts it).
        follow(basic(GATEWAY_ID, GATEWAY_SECRET));
    }

    @Test
    void onlyTheGatewaysCredentialsFollowTheFeed() throws Exception {
        App confidential = createApp(true, "public");
        assertEquals(401, status(null));
        assertEquals(401, status(basic(GATEWAY_ID, "not-the-secret-0123456789abcdef-xyz")));
        // A client that may introspect its own tokens only is no gateway.
        assertEquals(403, status(basic(confidential.clientId(), confidential.secret())));
        assertEquals(200, status(basic(GATEWAY_ID, GATEWAY_SECRET)));
    }

    /**
     * Attack: an application owner made every gateway forget every answer it kept, at will: 101
     * tokens, then the application deleted, was told as '*'. The tokens are named now (in parts).
     */
    @Test
    void deletingAnApplicationOfManyTokensNamesThemRatherThanEverything() throws Exception {
        BlockingQueue<String[]> events = follow(basic(GATEWAY_ID, GATEWAY_SECRET));
        App app = createApp(true, "public user");
        List<String> refs = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            String token = post("/oauth/token", app, "grant_type", "client_credentials", "scope", "public").statusCode(200)
                    .extract().path("access_token");
            if (i == 0 || i == 149) {
                refs.add(introspect(token).body("active", equalTo(true)).extract().path("revocation_ref"));
            }
        }
        asPerson(OWNER_ID, "owner", "admin").delete("/applications/" + app.id()).then().statusCode(204);
        List<String> named = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (!named.containsAll(refs) && System.nanoTime() < deadline) {
            String[] event = events.poll(1, TimeUnit.SECONDS);
            if (event != null && event[0].equals("changed")) {
                assertNotEquals("*", event[1], "a deletion of 150 tokens is no reason to forget everything");
                named.addAll(List.of(event[1].split(",")));
            }
        }
        assertTrue(named.containsAll(refs), "the first and the last token are named: " + refs);
        assertTrue(named.size() >= 150, "every token is named: " + named.size());
    }

    /** Waits for a change that names {@code ref}; no change may name {@code untouched}. */
    private static void awaitChanged(BlockingQueue<String[]> events, String ref, String untouched) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (System.nanoTime() < deadline) {
            String[] event = events.poll(1, TimeUnit.SECONDS);
            if (event == null || !event[0].equals("changed")) {
                continue;
            }
            List<String> refs = List.of(event[1].split(","));
            assertTrue(!refs.contains(untouched), "a token nobody changed is not named: " + event[1]);
            if (refs.contains(ref)) {
                return;
            }
        }
        throw new AssertionError("no change named " + ref);
    }

    private static String basic(String id, String secret) {
        return "Basic " + Base64.getEncoder().encodeToString((id + ":" + secret).getBytes(StandardCharsets.UTF_8));
    }

    private static HttpRequest request(String authorization) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port
                + "/internal/revocation-feed")).header("Accept", "text/event-stream");
        return authorization == null ? request.build() : request.header("Authorization", authorization).build();
    }

    private int status(String authorization) throws Exception {
        HttpResponse<java.util.stream.Stream<String>> response = connect(authorization);
        response.body().close();
        return response.statusCode();
    }

    /** The feed's answer; a 503 (the service's LISTEN connection not proven yet, just after start) is asked again. */
    private static HttpResponse<java.util.stream.Stream<String>> connect(String authorization) {
        java.util.concurrent.atomic.AtomicReference<HttpResponse<java.util.stream.Stream<String>>> answer =
                new java.util.concurrent.atomic.AtomicReference<>();
        org.awaitility.Awaitility.await("the feed answers other than 503").atMost(java.time.Duration.ofSeconds(WAIT_SECONDS))
                .pollInterval(java.time.Duration.ofMillis(100)).until(() -> {
                    HttpResponse<java.util.stream.Stream<String>> response = HttpClient.newHttpClient()
                            .sendAsync(request(authorization), HttpResponse.BodyHandlers.ofLines()).get(WAIT_SECONDS, TimeUnit.SECONDS);
                    if (response.statusCode() == 503) {
                        response.body().close();
                        return false;
                    }
                    answer.set(response);
                    return true;
                });
        return answer.get();
    }

    /** The feed's events as they come, each {name, data}; the first must be ready. */
    private BlockingQueue<String[]> follow(String authorization) throws Exception {
        HttpResponse<java.util.stream.Stream<String>> response = connect(authorization);
        assertEquals(200, response.statusCode());
        BlockingQueue<String[]> events = new LinkedBlockingQueue<>();
        open.add(CompletableFuture.runAsync(() -> {
            String[] event = {null, ""};
            try {
                for (var it = response.body().iterator(); it.hasNext(); ) {
                    String line = it.next();
                    if (line.startsWith("event:")) {
                        event[0] = line.substring(6).trim();
                    } else if (line.startsWith("data:")) {
                        event[1] = line.substring(5).trim();
                    } else if (line.isEmpty() && event[0] != null) {
                        events.add(event.clone());
                        event[0] = null;
                        event[1] = "";
                    }
                }
            } catch (RuntimeException closed) {
                // the test ended and closed it
            }
            events.add(new String[] {ENDED, ""});
        }));
        String[] first = events.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        assertNotNull(first, "a first event");
        assertEquals("ready", first[0]);
        return events;
    }
}
