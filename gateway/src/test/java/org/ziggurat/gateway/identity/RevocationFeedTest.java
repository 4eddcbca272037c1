package org.ziggurat.gateway.identity;

import org.ziggurat.gateway.UpstreamStubs;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.ziggurat.gateway.identity.GatewayIdentityTest.activeToken;
import static org.ziggurat.gateway.identity.GatewayIdentityTest.deactivate;
import static org.ziggurat.gateway.identity.GatewayIdentityTest.introspections;

/**
 * The revocation feed from auth-service (its stand-in here): an answer is reused for a long time
 * (here the longest there is, half the platform token's lifetime) only while the feed is up, and is
 * forgotten as soon as the feed names its token, or when the feed is lost or back.
 */
@QuarkusTest
@TestProfile(RevocationFeedTest.LongReuse.class)
class RevocationFeedTest {

    /** Answers kept far longer than any wait below: only the feed can make them go in time. */
    public static class LongReuse implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // Streams are checked again only when the feed makes their token's answer forgotten.
            return Map.of("ziggurat.gateway.token-cache-ttl", "1h", "ziggurat.gateway.stream-token-recheck", "1h");
        }
    }

    /** Generous: the machine may be busy; without the feed, answers stay for 15 s at least. */
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    Identities identities;

    @Inject
    FeedState feed;

    @BeforeEach
    void feedUp() {
        given().post(UpstreamStubs.authStub() + "/__stub/feed/allow").then().statusCode(204);
        await(feed::up, "the feed is up");
        // Answers given within a few seconds of the feed's start are reused briefly (FeedState.SETTLE_NANOS).
        await(() -> keptLong(activeToken("public")), "answers are kept long");
    }

    @AfterEach
    void allow() {
        given().post(UpstreamStubs.authStub() + "/__stub/feed/allow").then().statusCode(204);
    }

    @Test
    void aChangeTheFeedNamesForgetsThatTokensAnswerAtOnce() {
        String revoked = activeToken("public");
        String other = activeToken("public");
        call(revoked, 200);
        call(other, 200);
        assertNotNull(identities.known(revoked));
        deactivate(revoked);
        event("changed", UpstreamStubs.revocationReference(revoked) + ",0123456789abcdef");
        await(() -> identities.known(revoked) == null, "the named token's answer is forgotten");
        call(revoked, 401);
        int before = introspections();
        call(other, 200);
        assertEquals(before, introspections(), "a token the feed did not name is still answered from memory");
    }

    @Test
    void anOpenStreamEndsAtOnceWhenTheFeedNamesItsToken() throws Exception {
        String token = activeToken("public");
        java.net.http.HttpResponse<java.util.stream.Stream<String>> stream = java.net.http.HttpClient.newHttpClient()
                .sendAsync(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:"
                        + io.restassured.RestAssured.port + "/api/people/alice/sse")).header("Authorization", "Bearer " + token)
                        .build(), java.net.http.HttpResponse.BodyHandlers.ofLines()).get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertEquals(200, stream.statusCode());
        java.util.List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.CompletableFuture<Void> ended = java.util.concurrent.CompletableFuture.runAsync(() -> {
            try {
                stream.body().forEach(lines::add);
            } catch (RuntimeException closed) {
                // the connection was cut: ended as well
            }
        });
        deactivate(token);
        event("changed", UpstreamStubs.revocationReference(token));
        // Without the feed's word the stream would stay open for an hour (stream-token-recheck).
        ended.get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
        org.junit.jupiter.api.Assertions.assertTrue(lines.contains("event: stream_closed"), lines.toString());
    }

    @Test
    void anAnswerIntrospectedJustAfterItsTokenChangedIsNotKept() {
        String token = activeToken("public");
        // Named before the gateway knows it: an auth-service replica may not have heard the change yet.
        event("changed", UpstreamStubs.revocationReference(token));
        await(() -> feedHeard(token), "the change reached the gateway");
        call(token, 200);
        assertNull(identities.known(token), "not kept: the next request asks again");
    }

    @Test
    void everythingIsForgottenWhenTheFeedSaysAllOrIsBack() {
        String first = activeToken("public");
        call(first, 200);
        event("changed", "*");
        await(() -> identities.known(first) == null, "'*' forgets every answer");
        String second = activeToken("public");
        await(() -> keptLong(second), "kept long again");
        // A ready event is what a feed opened again starts with: what came meanwhile is lost.
        event("ready", "");
        await(() -> identities.known(second) == null, "the feed back forgets every answer");
    }

    @Test
    void whileTheFeedIsLostAnswersAreReusedBrieflyAndItReconnects() throws Exception {
        String before = activeToken("public");
        call(before, 200);
        assertNotNull(identities.known(before));
        given().post(UpstreamStubs.authStub() + "/__stub/feed/refuse").then().statusCode(204);
        await(() -> !feed.up(), "the gateway notices the feed is lost");
        assertNull(identities.known(before), "nothing kept from before the gap is trusted");
        String during = activeToken("public");
        call(during, 200);
        // Kept for unproven-reuse (1 s) at most (SpreadReuseTest): later, the token is introspected again.
        assertEquals(FeedState.Reuse.BRIEF, identities.known(during).reuse(),
                "an answer given while the feed is lost is reused briefly only");
        given().post(UpstreamStubs.authStub() + "/__stub/feed/allow").then().statusCode(204);
        await(feed::up, "the gateway opens the feed again by itself");
        await(() -> keptLong(activeToken("public")), "answers are kept long again");
    }

    /** Whether an answer about this fresh token is kept for the whole token-cache-ttl, not the unproven reuse (SpreadReuseTest). */
    private boolean keptLong(String token) {
        if (identities.known(token) == null) {
            // Asked only when nothing is kept (a brief answer ran out): every poll asking would meet the rate limit.
            call(token, 200);
        }
        Identities.Resolved kept = identities.known(token);
        return kept != null && kept.reuse() == FeedState.Reuse.FULL;
    }

    /** Whether the feed's change about the token was heard: an answer about it is not kept. */
    private boolean feedHeard(String token) {
        return feed.reuse(UpstreamStubs.revocationReference(token), System.nanoTime()) == FeedState.Reuse.NONE;
    }

    private static void call(String token, int status) {
        given().header("Authorization", "Bearer " + token).get("/people/alice").then().statusCode(status);
    }

    private static void event(String name, String data) {
        given().queryParam("name", name).body(data).post(UpstreamStubs.authStub() + "/__stub/feed/event").then()
                .statusCode(204);
    }

    private static void await(Callable<Boolean> condition, String what) {
        Awaitility.await(what).atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(condition);
    }
}
