package org.ziggurat.gateway.identity;

import org.ziggurat.gateway.UpstreamStubs;
import org.ziggurat.gateway.route.PublicRoutes;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Access tokens at the edge: introspection, the platform token, the cache, rate limits, CORS. */
@QuarkusTest
public class GatewayIdentityTest {

    /** A fresh token that the auth-service stand-in reports active for person 42 (alice). */
    public static String activeToken(String scope) {
        String token = "zat_" + UUID.randomUUID();
        long now = Instant.now().getEpochSecond();
        given().contentType("application/json").body(Map.of("active", true, "scope", scope, "client_id", "NotebookClient000001",
                        "username", "alice", "sub", "42", "token_type", "bearer", "exp", now + 3600, "iat", now))
                .put(UpstreamStubs.authStub() + "/__stub/tokens/" + token).then().statusCode(204);
        return token;
    }

    /** The same, for a person who signed in as {@code acr} says (RFC 9470 §6.2's introspection member). */
    static String activeToken(String scope, String acr) {
        String token = "zat_" + UUID.randomUUID();
        long now = Instant.now().getEpochSecond();
        given().contentType("application/json").body(Map.of("active", true, "scope", scope, "client_id", "NotebookClient000001",
                        "username", "alice", "sub", "42", "token_type", "bearer", "exp", now + 3600, "iat", now, "acr", acr))
                .put(UpstreamStubs.authStub() + "/__stub/tokens/" + token).then().statusCode(204);
        return token;
    }

    static void deactivate(String token) {
        given().contentType("application/json").body(Map.of("active", false)).put(UpstreamStubs.authStub() + "/__stub/tokens/" + token)
                .then().statusCode(204);
    }

    static int introspections() {
        return Integer.parseInt(given().get(UpstreamStubs.authStub() + "/__stub/introspections").asString());
    }

    static JsonPath platformClaims(String jwt) {
        String payload = new String(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]), StandardCharsets.UTF_8);
        return new JsonPath(payload);
    }

    @Test
    void aValidTokenBecomesAPlatformToken() {
        String token = activeToken("public write");
        var echo = given().header("Authorization", "Bearer " + token).get("/api/people/alice").then().statusCode(200)
                .body("headers.authorization", nullValue())
                .body("headers.x-platform-token", notNullValue()).extract().jsonPath();
        JsonPath claims = platformClaims(echo.getString("headers.x-platform-token"));
        assertEquals("42", claims.getString("sub"));
        assertEquals("alice", claims.getString("upn"));
        assertEquals("public write", claims.getString("scope"));
        assertEquals("NotebookClient000001", claims.getString("client_id"));
        assertEquals("urn:ziggurat:services", claims.getString("aud"));
        assertTrue(claims.getLong("exp") - claims.getLong("iat") <= 60);
    }

    @Test
    void theSignInsClassGoesIntoThePlatformTokenAndOnlyIntoItsOwn() {
        String mfa = "https://refeds.org/profile/mfa";
        String plain = activeToken("public vocab-sfa");
        String strong = activeToken("public vocab-sfa", mfa);
        String single = activeToken("public vocab-sfa", "https://refeds.org/profile/sfa");
        JsonPath plainClaims = platformClaims(forwardedPlatformToken(plain));
        JsonPath strongClaims = platformClaims(forwardedPlatformToken(strong));
        // Same person, client and scopes: the platform token of one may not serve the other.
        assertEquals(null, plainClaims.getString("acr"), "not known, not claimed");
        assertEquals(mfa, strongClaims.getString("acr"));
        assertEquals("https://refeds.org/profile/sfa", platformClaims(forwardedPlatformToken(single)).getString("acr"));
        assertEquals(mfa, platformClaims(forwardedPlatformToken(strong)).getString("acr"));
        assertEquals(null, platformClaims(forwardedPlatformToken(plain)).getString("acr"));
    }

    static String forwardedPlatformToken(String token) {
        return given().header("Authorization", "Bearer " + token).get("/api/people/alice").then().statusCode(200)
                .extract().jsonPath().getString("headers.x-platform-token");
    }

    @Test
    void allThreeTokenStylesWork() {
        String token = activeToken("public");
        given().header("Authorization", "token " + token).get("/people/alice").then().statusCode(200)
                .body("headers.x-platform-token", notNullValue());
        given().get("/v1/people/alice?access_token=" + token + "&page=2").then().statusCode(200)
                .body("headers.x-platform-token", notNullValue())
                .body("uri", equalTo("/people/alice?page=2"));
    }

    @Test
    void invalidTokensAre401ProblemsAndGoNoFurther() {
        given().header("Authorization", "Bearer zat_not_active").get("/people/alice").then().statusCode(401)
                .contentType("application/problem+json")
                .header("WWW-Authenticate", containsString("invalid_token"))
                .body("status", equalTo(401)).body("service", nullValue());
        given().header("Authorization", "Basic YWxhZGRpbjpvcGVuc2VzYW1l").get("/people/alice").then().statusCode(401)
                .header("WWW-Authenticate", containsString("invalid_request"));
        String token = activeToken("public");
        given().header("Authorization", "Bearer " + token).get("/people/alice?access_token=" + token)
                .then().statusCode(401);
    }

    /**
     * Introspection reports an unused refresh token as active (token_type refresh_token), and one
     * without a type says nothing of its kind: neither authorizes a call, in any token style.
     */
    /** A token the stand-in reports active with this audience (a string or a list) and token type. */
    static String tokenFor(Object audience, String tokenType) {
        String token = "zat_" + UUID.randomUUID();
        long now = Instant.now().getEpochSecond();
        given().contentType("application/json").body(Map.of("active", true, "scope", "user", "client_id", "NotebookClient000001",
                        "username", "alice", "sub", "42", "token_type", tokenType, "exp", now + 3600, "iat", now, "aud", audience))
                .put(UpstreamStubs.authStub() + "/__stub/tokens/" + token).then().statusCode(204);
        return token;
    }

    /**
     * RFC 8707: a token meant for another resource (a storage system's, say) is refused by the
     * platform's API, however valid; one that names the platform's API among others is taken. A
     * token bound to a DPoP key is no bearer token (RFC 9449 §7.1).
     */
    @Test
    void aTokenForAnotherResourceIsRefused() {
        given().header("Authorization", "Bearer " + tokenFor("https://storage.example.org", "bearer"))
                .get("/api/people/alice").then().statusCode(401).body("detail", containsString("another resource"));
        given().header("Authorization", "Bearer " + tokenFor(List.of("https://storage.example.org", "https://api.test.example/api"),
                "bearer")).get("/api/people/alice").then().log().ifValidationFails().statusCode(200);
        given().header("Authorization", "Bearer " + tokenFor("https://api.test.example/api", "bearer"))
                .get("/api/people/alice").then().statusCode(200);
        given().header("Authorization", "Bearer " + tokenFor("https://api.test.example/api", "DPoP"))
                .get("/api/people/alice").then().statusCode(401);
        // A JWT access token (RFC 9068), longer than an opaque one, is read whole and introspected
        // as one; its principal is that JWT, which is no platform token (signed by auth-service's key).
        java.util.Base64.Encoder b64 = java.util.Base64.getUrlEncoder().withoutPadding();
        String jwtLike = b64.encodeToString("{\"alg\":\"ES256\",\"typ\":\"at+jwt\",\"kid\":\"auth-key-1\"}".getBytes())
                + "." + b64.encodeToString(("{\"iss\":\"https://api.test.example/api\",\"sub\":\"42\",\"aud\":"
                + "\"https://api.test.example/api\",\"client_id\":\"NotebookClient000001\",\"scope\":\"user\",\"pad\":\""
                + "x".repeat(700) + "\"}").getBytes()) + "." + b64.encodeToString(new byte[64]);
        long now = Instant.now().getEpochSecond();
        given().contentType("application/json").body(Map.of("active", true, "scope", "user", "client_id", "NotebookClient000001",
                        "username", "alice", "sub", "42", "token_type", "bearer", "exp", now + 3600, "iat", now))
                .put(UpstreamStubs.authStub() + "/__stub/tokens/" + jwtLike).then().statusCode(204);
        given().header("Authorization", "Bearer " + jwtLike).get("/api/people/alice").then().statusCode(200);
    }

    @Test
    void onlyAccessTokensAuthorize() {
        long now = Instant.now().getEpochSecond();
        for (Map<String, Object> answer : new Map[] {
                Map.of("active", true, "scope", "user", "client_id", "NotebookClient000001", "username", "alice", "sub", "42",
                        "token_type", "refresh_token", "exp", now + 3600, "iat", now),
                Map.of("active", true, "scope", "user", "client_id", "NotebookClient000001", "username", "alice", "sub", "42",
                        "exp", now + 3600, "iat", now)}) {
            String token = "zrt_" + UUID.randomUUID();
            given().contentType("application/json").body(answer).put(UpstreamStubs.authStub() + "/__stub/tokens/" + token)
                    .then().statusCode(204);
            given().header("Authorization", "Bearer " + token).get("/api/people/alice").then().statusCode(401)
                    .contentType("application/problem+json");
            given().header("Authorization", "token " + token).get("/api/people/alice").then().statusCode(401);
            given().queryParam("access_token", token).get("/api/people/alice").then().statusCode(401);
        }
    }

    /**
     * A token that could not be checked (auth-service closed the connection, or failed) is a 503
     * the client may retry, never a 401 that makes it throw its token away, and it is not
     * remembered as inactive: once auth-service answers, the same token works at once.
     */
    @Test
    void aTokenThatCouldNotBeCheckedIsA503AndNotRememberedAsInactive() {
        for (Map<String, Object> failure : List.<Map<String, Object>>of(Map.of("close", true), Map.of("status", 500))) {
            String token = "zat_" + UUID.randomUUID();
            given().contentType("application/json").body(failure).put(UpstreamStubs.authStub() + "/__stub/tokens/" + token)
                    .then().statusCode(204);
            given().header("Authorization", "Bearer " + token).get("/api/people/alice").then().statusCode(503)
                    .contentType("application/problem+json").body("status", equalTo(503));
            long now = Instant.now().getEpochSecond();
            given().contentType("application/json").body(Map.of("active", true, "scope", "public", "client_id",
                            "NotebookClient000001", "username", "alice", "sub", "42", "token_type", "bearer",
                            "exp", now + 3600, "iat", now))
                    .put(UpstreamStubs.authStub() + "/__stub/tokens/" + token).then().statusCode(204);
            given().header("Authorization", "Bearer " + token).get("/api/people/alice").then().statusCode(200)
                    .body("headers.x-platform-token", notNullValue());
        }
        // A token that auth-service judged is still a 401, a JWT-shaped one too.
        given().header("Authorization", "Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJl").get("/api/people/alice")
                .then().statusCode(401);
    }

    @Test
    void noTokenIsAnonymousAndForgedIdentityIsDropped() {
        given().header("X-Platform-Token", "forged").get("/organizations").then().statusCode(200)
                .body("headers.x-platform-token", nullValue());
    }

    @Test
    void introspectionIsCachedAndRevocationTakesEffectAfterTheCacheLifetime() {
        String token = activeToken("public");
        int before = introspections();
        for (int i = 0; i < 3; i++) {
            given().header("Authorization", "Bearer " + token).get("/people/alice").then().statusCode(200);
        }
        assertEquals(1, introspections() - before, "three requests, one introspection");
        deactivate(token);
        // The cache (2 s in tests) may still answer for a moment; then the revocation holds. Polled
        // gently, so that the token's own rate limit (8 in tests) is not what ends it.
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(15))
                .pollInterval(java.time.Duration.ofMillis(900))
                .until(() -> given().header("Authorization", "Bearer " + token).get("/people/alice").statusCode() == 401);
        given().header("Authorization", "Bearer " + token).get("/people/alice").then().statusCode(401);
    }

    /**
     * The answer is checked again after the cache lifetime (2 s in tests), but a platform token
     * stating the same is not signed again: the same token comes back (a new signature would carry
     * a later iat). An answer that says something else gets a token of its own.
     */
    @Test
    void aReIntrospectionThatSaysTheSameKeepsItsPlatformToken() {
        String token = activeToken("public");
        String first = platformTokenFor(token);
        int before = introspections();
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                .pollInterval(java.time.Duration.ofMillis(1100))
                .until(() -> platformTokenFor(token) != null && introspections() > before);
        String again = platformTokenFor(token);
        assertEquals(first, again, "the same claims, the same platform token");
        long now = Instant.now().getEpochSecond();
        given().contentType("application/json").body(Map.of("active", true, "scope", "public write", "client_id",
                        "NotebookClient000001", "username", "alice", "sub", "42", "token_type", "bearer", "exp", now + 3600,
                        "iat", now))
                .put(UpstreamStubs.authStub() + "/__stub/tokens/" + token).then().statusCode(204);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                .pollInterval(java.time.Duration.ofMillis(1100))
                .until(() -> "public write".equals(platformClaims(platformTokenFor(token)).getString("scope")));
        String widened = platformTokenFor(token);
        assertTrue(!widened.equals(first), "other claims, another platform token");
        JsonPath claims = platformClaims(widened);
        assertTrue(claims.getLong("exp") - Instant.now().getEpochSecond() > Identities.PLATFORM_TOKEN_MARGIN_SECONDS);
    }

    private static String platformTokenFor(String accessToken) {
        return given().header("Authorization", "Bearer " + accessToken).get("/people/alice").then().statusCode(200)
                .extract().path("headers.x-platform-token");
    }

    /** Requests that arrive together with a token the gateway has not seen share one introspection. */
    @Test
    void concurrentRequestsWithANewTokenShareOneIntrospection() throws Exception {
        String token = activeToken("public");
        int before = introspections();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(6);
        try {
            java.util.List<java.util.concurrent.Future<String>> answers = new java.util.ArrayList<>();
            for (int i = 0; i < 6; i++) {
                answers.add(pool.submit(() -> given().header("Authorization", "Bearer " + token).get("/people/alice")
                        .then().statusCode(200).extract().path("headers.x-platform-token")));
            }
            java.util.Set<String> platformTokens = new java.util.HashSet<>();
            for (var answer : answers) {
                platformTokens.add(answer.get());
            }
            assertEquals(1, platformTokens.size(), "one platform token for one access token");
        } finally {
            pool.shutdown();
        }
        assertEquals(1, introspections() - before, "six requests, one introspection");
    }

    @Test
    void oauthEndpointsPassThroughUntouched() {
        String token = activeToken("public");
        int before = introspections();
        given().header("Authorization", "Bearer " + token).contentType("application/x-www-form-urlencoded")
                .body("token=" + token).post("/api/oauth/revoke").then().statusCode(200)
                .body("service", equalTo(PublicRoutes.AUTH))
                .body("headers.authorization", equalTo("Bearer " + token))
                .body("headers.x-platform-token", nullValue());
        given().get("/api/oauth/authorize?client_id=x&access_token=abc").then().statusCode(200)
                .body("uri", equalTo("/oauth/authorize?client_id=x&access_token=abc"));
        assertEquals(before, introspections(), "no introspection on /oauth");
    }

    @Test
    void aPostBodyWaitsIntactWhileTheTokenIsChecked() {
        String token = activeToken("public write");
        byte[] body = new byte[300 * 1024];
        new Random(11).nextBytes(body);
        // First with a token the gateway must check, then with the same token known: that request
        // goes on without waiting, and its body must pass intact too.
        for (int i = 0; i < 2; i++) {
            given().header("Authorization", "Bearer " + token).contentType("application/octet-stream").body(body)
                    .post("/alice/vocab/schemes/places/import").then().statusCode(200)
                    .body("body_length", equalTo(body.length))
                    .body("body_sha256", equalTo(UpstreamStubs.sha256(body)))
                    .body("headers.x-platform-token", notNullValue())
                    .body("headers.authorization", nullValue());
        }
    }

    @Test
    void clientCredentialTokensCarryNoPerson() {
        String token = "zat_" + UUID.randomUUID();
        // As auth-service answers for a client_credentials token: token_type bearer, no username.
        given().contentType("application/json").body(Map.of("active", true, "scope", "public", "client_id", "Robot",
                "sub", "Robot", "token_type", "bearer", "exp", Instant.now().getEpochSecond() + 600))
                .put(UpstreamStubs.authStub() + "/__stub/tokens/" + token).then().statusCode(204);
        given().header("Authorization", "Bearer " + token).get("/people/alice").then().statusCode(200)
                .body("headers.x-platform-token", nullValue());
    }

    @Test
    void rateLimitsPerToken() {
        String token = activeToken("public");
        int remaining = Integer.MAX_VALUE;
        for (int i = 0; i < 8; i++) {
            var response = given().header("Authorization", "Bearer " + token).get("/people/alice");
            response.then().statusCode(200).header("X-RateLimit-Limit", "8").header("X-RateLimit-Reset", notNullValue());
            int now = Integer.parseInt(response.getHeader("X-RateLimit-Remaining"));
            assertTrue(now < remaining);
            remaining = now;
        }
        given().header("Authorization", "Bearer " + token).get("/people/alice").then().statusCode(429)
                .contentType("application/problem+json").header("Retry-After", notNullValue())
                .header("X-RateLimit-Remaining", "0");
        // Another token has its own window; the token endpoint has windows of its own (per address).
        given().header("Authorization", "Bearer " + activeToken("public")).get("/people/alice").then().statusCode(200);
        given().header("Authorization", "Bearer " + token).post("/oauth/token").then().statusCode(200)
                .header("X-RateLimit-Limit", "20");
    }

    /**
     * The token endpoint is limited per client address (20 in tests) and per client named by HTTP
     * Basic (10): a flood of password grants from one place, or for one client, stops at the
     * gateway with 429 and Retry-After, before any hashing.
     */
    @Test
    void theTokenEndpointIsLimitedPerAddressAndPerClient() {
        String address = "198.51.100." + (50 + new Random().nextInt(100));
        for (int i = 0; i < 20; i++) {
            given().header("X-Forwarded-For", address).post("/oauth/token").then().statusCode(200)
                    .header("X-RateLimit-Remaining", Integer.toString(19 - i));
        }
        given().header("X-Forwarded-For", address).post("/api/oauth/token").then().statusCode(429)
                .header("Retry-After", notNullValue()).contentType("application/problem+json");
        // Other OAuth endpoints, and other addresses, are not held by it.
        given().header("X-Forwarded-For", address).post("/oauth/revoke").then().statusCode(200);
        String client = "Client" + UUID.randomUUID().toString().substring(0, 8);
        String basic = "Basic " + Base64.getEncoder().encodeToString((client + ":secret").getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < 10; i++) {
            given().header("X-Forwarded-For", "203.0.113." + i).header("Authorization", basic).post("/oauth/token")
                    .then().statusCode(200);
        }
        given().header("X-Forwarded-For", "203.0.113.200").header("Authorization", basic).post("/oauth/token")
                .then().statusCode(429);
        // A client that names itself in the form is counted the same; its body reaches auth-service intact.
        String formClient = "Form" + UUID.randomUUID().toString().substring(0, 8);
        String form = "grant_type=client_credentials&client_id=" + formClient + "&client_secret=s%26cret";
        for (int i = 0; i < 10; i++) {
            given().header("X-Forwarded-For", "203.0.114." + i).contentType("application/x-www-form-urlencoded").body(form)
                    .post("/oauth/token").then().statusCode(200)
                    .body("body_sha256", equalTo(UpstreamStubs.sha256(form.getBytes(StandardCharsets.UTF_8))));
        }
        given().header("X-Forwarded-For", "203.0.114.200").contentType("application/x-www-form-urlencoded").body(form)
                .post("/oauth/token").then().statusCode(429);
    }

    /**
     * Device authorization and pushed requests store a row for nothing but a public client's id:
     * limited like the token endpoint, per address (20 in tests) and per client (10), each in
     * windows of its own, so that flooding one leaves the others' allowance alone.
     */
    @Test
    void deviceAuthorizationAndPushedRequestsAreLimitedPerAddressAndPerClient() {
        for (String endpoint : List.of("/oauth/device_authorization", "/oauth/par")) {
            String address = "198.51.100." + (150 + new Random().nextInt(100));
            for (int i = 0; i < 20; i++) {
                given().header("X-Forwarded-For", address).post(endpoint).then().statusCode(200)
                        .header("X-RateLimit-Remaining", Integer.toString(19 - i));
            }
            given().header("X-Forwarded-For", address).post("/api" + endpoint).then().statusCode(429)
                    .header("Retry-After", notNullValue()).contentType("application/problem+json");
            // The token endpoint's window from the same address is its own.
            given().header("X-Forwarded-For", address).post("/oauth/token").then().statusCode(200);

            String publicClient = "Public" + UUID.randomUUID().toString().substring(0, 8);
            String form = "client_id=" + publicClient + "&scope=openid";
            for (int i = 0; i < 10; i++) {
                given().header("X-Forwarded-For", "203.0.115." + i).contentType("application/x-www-form-urlencoded")
                        .body(form).post(endpoint).then().statusCode(200)
                        .body("body_sha256", equalTo(UpstreamStubs.sha256(form.getBytes(StandardCharsets.UTF_8))));
            }
            given().header("X-Forwarded-For", "203.0.115.200").contentType("application/x-www-form-urlencoded").body(form)
                    .post(endpoint).then().statusCode(429).header("Retry-After", notNullValue());
            // The same client at the token endpoint is not held by it.
            given().header("X-Forwarded-For", "203.0.115.201").contentType("application/x-www-form-urlencoded")
                    .body("grant_type=client_credentials&client_id=" + publicClient).post("/oauth/token").then().statusCode(200);
        }
    }

    /** A token introspection called inactive is refused again for a while without another introspection. */
    @Test
    void inactiveTokensAreRememberedBriefly() {
        String token = "zat_" + UUID.randomUUID();
        int before = introspections();
        for (int i = 0; i < 3; i++) {
            given().header("Authorization", "Bearer " + token).get("/people/alice").then().statusCode(401);
        }
        assertEquals(1, introspections() - before, "three requests with one bad token, one introspection");
    }

    /**
     * An event stream is authorized when it opens and checked again while open: once its token
     * is revoked, a last event says why and the stream ends (it kept delivering before).
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(java.net.http.HttpClient.Version.class)
    void anOpenStreamEndsWhenItsTokenIsRevoked(java.net.http.HttpClient.Version version) throws Exception {
        String token = activeToken("public");
        java.net.http.HttpResponse<java.util.stream.Stream<String>> stream = java.net.http.HttpClient.newBuilder()
                .version(version).build()
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
        // While the token is active the stream stays open through several checks.
        org.junit.jupiter.api.Assertions.assertThrows(java.util.concurrent.TimeoutException.class,
                () -> ended.get(1500, java.util.concurrent.TimeUnit.MILLISECONDS), () -> "ended while active: " + lines);
        deactivate(token);
        ended.get(15, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(lines.contains("event: stream_closed"), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"reason\":\"token_inactive\"")), lines.toString());
    }

    @Test
    void corsForBrowserApplications() {
        given().header("Origin", "https://app.example.org").header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "Authorization, Content-Type")
                .options("/api/alice/vocab/schemes").then().statusCode(204)
                .header("Access-Control-Allow-Origin", "*")
                .header("Access-Control-Allow-Methods", containsString("PATCH"))
                .header("Access-Control-Allow-Headers", containsString("Authorization"));
        given().header("Origin", "https://app.example.org").get("/api/people/alice").then().statusCode(200)
                .header("Access-Control-Allow-Origin", "*")
                .header("Access-Control-Expose-Headers", containsString("Link"));
        given().header("Origin", "https://app.example.org").get("/api/oauth/authorize?client_id=x").then()
                .header("Access-Control-Allow-Origin", nullValue());
        // The other pages of the authorization server are no API for other origins either.
        for (String page : new String[] {"/api/oauth/logout", "/api/oauth/device?user_code=BCDF-GHJK"}) {
            given().header("Origin", "https://app.example.org").get(page).then()
                    .header("Access-Control-Allow-Origin", nullValue());
        }
        // Userinfo is: a single-page application reads it.
        given().header("Origin", "https://app.example.org").get("/api/oauth/userinfo").then()
                .header("Access-Control-Allow-Origin", "*");
    }
}
