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
import java.util.Set;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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
    void aRevokedTokenIsInactiveAtEveryReplicaWithinASecondAndRefusedByEveryGateway() throws Exception {
        Platform.Person ada = Platform.signUp("replica");
        String token = Platform.accessToken(ada, "user");
        // Both replicas have the token live in memory (introspection keeps what it read).
        assertTrue(active("auth-service", token));
        assertTrue(active("auth-service-2", token));
        assertTrue(active("auth-service-2", token));

        // Both gateways have it too (resolved and cached), each asked directly.
        for (String gateway : Stack.instancesOf("gateway")) {
            io.restassured.RestAssured.given().baseUri(Stack.get().instanceUrl(gateway) + "/api")
                    .header("Authorization", "Bearer " + token).get("/user").then().statusCode(200);
        }
        // Revoked through the public balancer (a gateway, then an auth-service instance).
        as(token).formParam("token", token).post("/oauth/revoke").then().statusCode(200);
        long revokedAt = System.nanoTime();
        // One instance revoked it (the balancer chose which); both say inactive within a second.
        long deadline = revokedAt + TimeUnit.SECONDS.toNanos(1);
        boolean stillActive = true;
        while (stillActive && System.nanoTime() < deadline) {
            stillActive = active("auth-service", token) || active("auth-service-2", token);
            if (stillActive) {
                Thread.sleep(20);
            }
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - revokedAt);
        System.out.printf("Replicas: a revocation was known to both auth-service instances in %d ms%n", millis);
        assertTrue(!stillActive, "an auth-service instance still called the revoked token active after " + millis + " ms");
        // And every gateway refuses it within its cache's lifetime (2 s here), each asked directly.
        for (String gateway : Stack.instancesOf("gateway")) {
            long until = revokedAt + TimeUnit.MILLISECONDS.toNanos(2_000 + 1_000);
            int status = 0;
            while (System.nanoTime() < until) {
                status = io.restassured.RestAssured.given().baseUri(Stack.get().instanceUrl(gateway) + "/api")
                        .header("Authorization", "Bearer " + token).get("/user").statusCode();
                if (status == 401) {
                    break;
                }
                Thread.sleep(50);
            }
            long refusedAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - revokedAt);
            System.out.printf("Replicas: %s refused the revoked token %d ms after the revocation%n", gateway, refusedAfter);
            assertEquals(401, status, gateway + " still let the revoked token through " + refusedAfter + " ms after it");
        }
    }

    /**
     * Both auth-service instances rotate the ID-token signing keys as they start, at once, their
     * queries through PgBouncer in transaction mode: each algorithm has one series of keys (no two
     * made side by side by racing replicas: each signs for a lifetime after the one before), and
     * both publish the same set, every key of it. (OpenIdRelyingPartyTest may have rotated one.)
     */
    @Test
    void bothReplicasPublishOneSigningKeySeries() throws Exception {
        Map<String, List<java.time.OffsetDateTime>> retirements = new java.util.TreeMap<>();
        Set<String> stored = new java.util.TreeSet<>();
        var server = Stack.get().server;
        try (var c = java.sql.DriverManager.getConnection(server.jdbcUrl(Stack.DATABASE), server.user(), server.password());
                var rows = c.createStatement().executeQuery("SELECT kid, alg, retire_at FROM auth.signing_key ORDER BY alg, retire_at")) {
            while (rows.next()) {
                stored.add(rows.getString("kid"));
                retirements.computeIfAbsent(rows.getString("alg"), alg -> new java.util.ArrayList<>())
                        .add(rows.getObject("retire_at", java.time.OffsetDateTime.class));
            }
        }
        assertEquals(Set.of("ES256", "RS256"), retirements.keySet());
        retirements.forEach((alg, times) -> {
            for (int i = 1; i < times.size(); i++) {
                assertTrue(java.time.Duration.between(times.get(i - 1), times.get(i)).toDays() >= 1,
                        alg + " keys made side by side, retiring at " + times);
            }
        });
        // A replica reads the keys again within a minute of a change (SigningKeys.CACHE_MILLIS).
        long deadline = System.currentTimeMillis() + 65_000;
        for (String instance : List.of("auth-service", "auth-service-2")) {
            Set<String> published;
            do {
                HttpResponse<String> jwks = HTTP.send(HttpRequest.newBuilder(URI.create(Stack.get().instanceUrl(instance)
                        + "/oauth/jwks")).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, jwks.statusCode(), jwks.body());
                List<Map<String, Object>> keys = io.restassured.path.json.JsonPath.from(jwks.body()).getList("keys");
                published = keys.stream().map(k -> (String) k.get("kid")).collect(java.util.stream.Collectors.toSet());
                if (!published.equals(stored)) {
                    Thread.sleep(1000);
                }
            } while (!published.equals(stored) && System.currentTimeMillis() < deadline);
            assertEquals(stored, published, instance + " publishes another set than the stored one");
        }
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
            // The stream's first comment says it is open, its notifications subscribed.
            String first = lines.readLine();
            while (first != null && !first.startsWith(":")) {
                first = lines.readLine();
            }
            assertTrue(first != null, "the stream ended before it opened");
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
            // Appended through the public balancer. The promise counts from the append, which is
            // committed before its answer: the other stream may hear it before the answer arrives.
            long sentAt = System.nanoTime();
            as(token).contentType("application/json").body(Map.of("note", "across replicas")).post(path).then().statusCode(201);
            long answeredAt = System.nanoTime();
            Long at = heard.get(5, TimeUnit.SECONDS);
            long afterAnswer = TimeUnit.NANOSECONDS.toMillis(at - answeredAt);
            System.out.printf("Replicas: an event appended through one events-service instance reached a stream of the "
                    + "other %d ms after the request was sent, %d ms after its answer%n",
                    TimeUnit.NANOSECONDS.toMillis(at - sentAt), afterAnswer);
            assertTrue(at > 0 && afterAnswer < 1000, "the other replica's stream heard it " + afterAnswer
                    + " ms after the append was answered");
        } finally {
            stream.body().close();
        }
    }

    @Test
    void theSameIdempotencyKeyAtTwoReplicasAtOnceCreatesOneEvent() throws Exception {
        Platform.Person ada = Platform.signUp("replica");
        String platformToken = org.ziggurat.platform.testing.TestTokens.userSignedWith(Stack.get().keysDirectory(), ada.id(),
                ada.username(), "write");
        String path = "/" + ada.username() + "/repositories/twice/data/events";
        for (int round = 0; round < 10; round++) {
            String key = "replica-round-" + round + "-" + java.util.UUID.randomUUID();
            String body = "{\"note\":\"round " + round + "\"}";
            List<CompletableFuture<HttpResponse<String>>> answers = new java.util.ArrayList<>();
            for (String instance : List.of("events-service", "events-service-2")) {
                answers.add(HTTP.sendAsync(HttpRequest.newBuilder(URI.create(Stack.get().instanceUrl(instance) + path))
                        .header("X-Platform-Token", platformToken).header("Idempotency-Key", key)
                        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            java.util.Set<Object> ids = new java.util.HashSet<>();
            for (CompletableFuture<HttpResponse<String>> answer : answers) {
                HttpResponse<String> response = answer.get(30, TimeUnit.SECONDS);
                assertEquals(201, response.statusCode(), response.body());
                ids.add(io.restassured.path.json.JsonPath.from(response.body()).getLong("id"));
            }
            assertEquals(1, ids.size(), "round " + round + ": two events for one key: " + ids);
        }
        List<Object> notes = Platform.anonymous().queryParam("per_page", 100).get(path).then().statusCode(200).extract()
                .jsonPath().getList("note");
        assertEquals(10, notes.size(), "one event per key: " + notes);
        assertEquals(10, new java.util.HashSet<>(notes).size(), notes.toString());
    }

    /** auth-service asks the directory to check a password; the throttle's count is the account's, on every replica. */
    @Test
    void theLoginThrottleCountsEveryReplicasFailures() throws Exception {
        Platform.Person ada = Platform.signUp("replica");
        String service = org.ziggurat.platform.testing.TestTokens.serviceSignedWith(Stack.get().keysDirectory(), "auth-service");
        List<String> instances = List.of("directory-service", "directory-service-2");
        int limit = 10; // ziggurat.directory.account-throttle.limit, as deployed
        String guesser = "192.0.2." + (int) (Math.random() * 200 + 1);
        for (int attempt = 0; attempt < limit; attempt++) {
            HttpResponse<String> refused = verify(instances.get(attempt % 2), service, ada.username(), "wrong password " + attempt,
                    guesser);
            assertEquals(401, refused.statusCode(), "attempt " + attempt + ": " + refused.body());
        }
        // Five failures at each replica: ten for the account from that address. The right password
        // from there is refused at both; from another address (the owner's) it is not.
        for (String instance : instances) {
            HttpResponse<String> blocked = verify(instance, service, ada.username(), ada.password(), guesser);
            assertEquals(429, blocked.statusCode(), instance + " let the address try again: " + blocked.body());
            assertTrue(blocked.headers().firstValue("Retry-After").isPresent(), instance);
        }
        assertEquals(200, verify("directory-service-2", service, ada.username(), ada.password(), "198.51.100.7").statusCode());
    }

    static HttpResponse<String> verify(String instance, String serviceToken, String login, String password, String address)
            throws Exception {
        String body = "{\"login\":\"" + login + "\",\"password\":\"" + password + "\",\"client_address\":\"" + address + "\"}";
        return HTTP.send(HttpRequest.newBuilder(URI.create(Stack.get().instanceUrl(instance) + "/internal/passwords/verify"))
                .header("X-Platform-Token", serviceToken).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Each vocab-service replica keeps the pages it rendered (RenderedPages), under the scheme's
     * revision: a change written through one replica shows at once in a page the other had kept,
     * with no time-to-live and no message between them.
     */
    @Test
    void aPageKeptByOneReplicaShowsAChangeWrittenThroughTheOther() throws Exception {
        Platform.Person ada = Platform.signUp("pages");
        String ns = ada.username();
        as(Platform.accessToken(ada, "write")).contentType("application/json").body(Map.of("slug", "kept", "title", "Kept"))
                .post("/" + ns + "/vocab/schemes").then().statusCode(201);
        String platformToken = org.ziggurat.platform.testing.TestTokens.userSignedWith(Stack.get().keysDirectory(), ada.id(),
                ada.username(), "write", "update");
        String page = "/" + ns + "/vocab/schemes/kept/concepts";
        List<String> instances = Stack.instancesOf("vocab-service");
        for (String instance : instances) { // read twice: kept by each
            assertEquals(List.of(), labels(instance, page, platformToken));
            assertEquals(List.of(), labels(instance, page, platformToken));
        }
        String concept = "{\"labels\":[{\"type\":\"Preferred\",\"body\":\"Uruk\",\"language\":\"en\"}]}";
        HttpResponse<String> created = send(instanceRequest(instances.get(0), page, platformToken)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(concept)).build());
        assertEquals(201, created.statusCode(), created.body());
        assertEquals(List.of("Uruk"), labels(instances.get(1), page, platformToken), "the other replica's kept page");
    }

    private static List<Object> labels(String instance, String path, String platformToken) throws Exception {
        HttpResponse<String> read = send(instanceRequest(instance, path, platformToken).GET().build());
        assertEquals(200, read.statusCode(), instance + ": " + read.body());
        return io.restassured.path.json.JsonPath.from(read.body()).getList("concepts.default_label");
    }

    private static HttpRequest.Builder instanceRequest(String instance, String path, String platformToken) {
        return HttpRequest.newBuilder(URI.create(Stack.get().instanceUrl(instance) + path)).header("X-Platform-Token", platformToken);
    }

    private static HttpResponse<String> send(HttpRequest request) throws Exception {
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /**
     * An import is one job for every replica: read through either one, and when the replica
     * running it goes away mid-way (here both, so that the one running it is among them), the
     * job does not stay "running": once its heartbeat is stale another claim runs it again.
     */
    @Test
    void anImportIsReadThroughEitherReplicaAndSurvivesItsReplicaGoingAway() throws Exception {
        Platform.Person ada = Platform.signUp("replica");
        String token = Platform.accessToken(ada, "write", "update");
        String ns = ada.username();
        as(token).contentType("application/json").body(Map.of("slug", "big", "title", "Big"))
                .post("/" + ns + "/vocab/schemes").then().statusCode(201);
        int concepts = 20_000;
        StringBuilder turtle = new StringBuilder("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n"
                + "<https://example.org/big> a skos:ConceptScheme .\n");
        for (int i = 0; i < concepts; i++) {
            turtle.append("<https://example.org/big/c").append(i).append("> a skos:Concept ; skos:inScheme <https://example.org/big> ;"
                    + " skos:prefLabel \"Concept ").append(i).append("\"@en ; skos:altLabel \"Begriff ").append(i).append("\"@de .\n");
        }
        String job = as(token).contentType("text/turtle").body(turtle.toString()).post("/" + ns + "/vocab/schemes/big/import")
                .then().statusCode(202).extract().header("Location");
        String jobPath = job.substring(job.indexOf("/api/") + 4);
        String platformToken = org.ziggurat.platform.testing.TestTokens.userSignedWith(Stack.get().keysDirectory(), ada.id(),
                ada.username(), "write", "update");
        for (String instance : Stack.instancesOf("vocab-service")) {
            HttpResponse<String> read = send(instanceRequest(instance, jobPath, platformToken).GET().build());
            assertEquals(200, read.statusCode(), instance + ": " + read.body());
        }
        // Mid-way: running, some concepts done, not finished.
        long deadline = System.currentTimeMillis() + 60_000;
        Map<String, Object> state = Map.of();
        while (System.currentTimeMillis() < deadline) {
            state = as(token).get(jobPath).then().statusCode(200).extract().jsonPath().getMap("");
            if ("running".equals(state.get("state")) && ((Number) state.get("concepts_done")).intValue() > 0) {
                break;
            }
            assertTrue(List.of("queued", "running").contains(state.get("state")), "the import ended before the fault: " + state);
            Thread.sleep(50);
        }
        assertEquals("running", state.get("state"), "the import never ran: " + state);
        Object doneAtKill = state.get("concepts_done");
        long killedAt = System.nanoTime();
        Stack.get().kill("vocab-service");
        Stack.get().restart("vocab-service");
        while (System.currentTimeMillis() < deadline + 120_000) {
            state = as(token).get(jobPath).then().statusCode(200).extract().jsonPath().getMap("");
            if (List.of("succeeded", "failed").contains(state.get("state"))) {
                break;
            }
            Thread.sleep(200);
        }
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - killedAt);
        System.out.printf("Replicas: an import whose replicas were killed mid-way (at %s of %s concepts) ended %s %d s later%n",
                doneAtKill, concepts, state.get("state"), seconds);
        assertEquals("succeeded", state.get("state"), "the import did not resume: " + state);
        assertEquals(concepts, ((Number) state.get("concepts_created")).intValue() + ((Number) state.get("concepts_replaced")).intValue(),
                state.toString());
        var server = Stack.get().server;
        try (var c = java.sql.DriverManager.getConnection(server.jdbcUrl(Stack.DATABASE), server.user(), server.password());
                var q = c.prepareStatement("SELECT count(*) FROM vocab.concept c JOIN vocab.scheme s ON s.id = c.scheme_id "
                        + "WHERE s.namespace = ? AND s.slug = 'big'")) {
            q.setString(1, ns);
            try (var rs = q.executeQuery()) {
                rs.next();
                assertEquals(concepts, rs.getInt(1), "concepts stored after the resumed import, each once");
            }
        }
    }

    /**
     * A limit holds in total across the gateways: the token endpoint's limit per client, here
     * {@value Stack#TOKEN_ENDPOINT_PER_CLIENT} per window, for one client whose requests the public
     * balancer spreads over both gateways. Each gateway alone used to allow the whole limit.
     */
    @Test
    void aRateLimitHoldsInTotalAcrossTheGateways() throws Exception {
        String client = "RateProbe" + UUID.randomUUID().toString().replace("-", "").substring(0, 11);
        int limit = Stack.TOKEN_ENDPOINT_PER_CLIENT;
        int allowed = 0;
        int limited = 0;
        for (int i = 0; i < 3 * limit; i++) {
            HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(Platform.api() + "/oauth/token"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials&client_id=" + client)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() == 429) {
                limited++;
            } else {
                assertEquals(401, answer.statusCode(), "an unknown client past the gateway: " + answer.body());
                allowed++;
            }
        }
        System.out.printf("Replicas: %d token requests of one client through two gateways: %d let through, %d limited "
                + "(limit %d)%n", 3 * limit, allowed, limited, limit);
        assertTrue(Math.abs(allowed - limit) <= limit / 10, allowed + " let through for a limit of " + limit);
    }
}
