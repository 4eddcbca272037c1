package org.ziggurat.e2e;

import org.junit.jupiter.api.Test;

import static org.hamcrest.Matchers.equalTo;
import static org.ziggurat.e2e.Platform.anonymous;
import static org.ziggurat.e2e.Platform.as;

/** What bounds the expensive paths, through the gateway: body sizes. */
class LimitsTest {

    /**
     * The review's finding: 20 MB of JSON from an anonymous caller reached an ordinary vocabulary
     * endpoint and was parsed before authorization (422). Every route but an import takes 1 MiB.
     */
    @Test
    void oversizedBodiesAreRefusedBeforeAnythingElse() {
        Platform.Person ada = Platform.signUp("big");
        String token = Platform.accessToken(ada, "user", "write", "update");
        String json = "{\"name\":\"" + "x".repeat(20_000_000) + "\"}";
        String schemes = "/" + ada.username() + "/vocab/schemes";
        // Off the contract on purpose (a body past every limit): only the answers are checked against it.
        Platform.offContract().contentType("application/json").body(json).post(schemes).then().statusCode(413)
                .contentType("application/problem+json").body("status", equalTo(413));
        Platform.offContract().header("Authorization", "Bearer " + token).contentType("application/json").body(json)
                .post(schemes).then().statusCode(413);
        Platform.offContract().contentType("application/json").body(json).post("/people").then().statusCode(413);
        Platform.offContract().header("Authorization", "Bearer " + token).contentType("application/json").body(json)
                .post("/" + ada.username() + "/repositories/r/data/events").then().statusCode(413);
        // An import takes a large document: past 1 MiB it is still accepted as a job.
        as(token).contentType("application/json").body(java.util.Map.of("slug", "big", "title", "Big"))
                .post(schemes).then().statusCode(201);
        StringBuilder turtle = new StringBuilder("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n");
        for (int i = 0; turtle.length() < 1_500_000; i++) {
            turtle.append("<https://example.org/c/").append(i).append("> a skos:Concept ; skos:prefLabel \"concept number ")
                    .append(i).append("\"@en .\n");
        }
        as(token).contentType("text/turtle").body(turtle.toString()).post(schemes + "/big/import").then().statusCode(202);
    }

    /**
     * The review's finding: successful password checks were not counted, and the hashing queue
     * had no bound, so one account's flood of password grants queued Argon2id work until everyone's
     * sign-in timed out. Now an account's checks are capped (60 per 15 minutes) and the queue is
     * bounded (a fast 503 with Retry-After): another person signs in meanwhile, honouring
     * Retry-After. The numbers are logged for the record.
     */
    @Test
    void aFloodOfPasswordGrantsLeavesOthersSigningIn() throws Exception {
        Platform.Person flooder = Platform.signUp("flood");
        Platform.Person other = Platform.signUp("other");
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(48);
        java.util.List<java.util.concurrent.Future<io.restassured.response.Response>> flood = new java.util.ArrayList<>();
        long started = System.nanoTime();
        for (int i = 0; i < 150; i++) {
            flood.add(pool.submit(() -> passwordGrant(flooder)));
        }
        // Meanwhile the other person signs in, as a client would: on 503 or 429, after Retry-After.
        java.util.List<String> attempts = new java.util.ArrayList<>();
        int status = 0;
        long signedInAfter = -1;
        while (System.nanoTime() - started < 30_000_000_000L) {
            long t0 = System.nanoTime();
            io.restassured.response.Response r = passwordGrant(other);
            status = r.statusCode();
            attempts.add(status + " in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
            if (status == 200) {
                signedInAfter = (System.nanoTime() - started) / 1_000_000;
                break;
            }
            org.junit.jupiter.api.Assertions.assertTrue(status == 503 || status == 429, r.asString());
            Thread.sleep(1000L * Long.parseLong(r.getHeader("Retry-After")));
        }
        java.util.Map<Integer, Integer> outcomes = new java.util.TreeMap<>();
        for (var f : flood) {
            io.restassured.response.Response r = f.get(60, java.util.concurrent.TimeUnit.SECONDS);
            outcomes.merge(r.statusCode(), 1, Integer::sum);
            if (r.statusCode() != 200) {
                org.junit.jupiter.api.Assertions.assertTrue(r.statusCode() == 429 || r.statusCode() == 503
                        || r.statusCode() == 400, r.statusCode() + " " + r.asString());
                org.junit.jupiter.api.Assertions.assertNotNull(r.getHeader("Retry-After"), r.asString());
            }
        }
        long floodDone = (System.nanoTime() - started) / 1_000_000;
        pool.shutdown();
        java.util.logging.Logger.getLogger(getClass().getName()).info("password flood: 150 grants for one account "
                + outcomes + " within " + floodDone + " ms; another person's sign-in: " + attempts + ", signed in after "
                + signedInAfter + " ms");
        org.junit.jupiter.api.Assertions.assertEquals(200, status, "the other person never signed in: " + attempts);
        org.junit.jupiter.api.Assertions.assertTrue(outcomes.getOrDefault(200, 0) <= 60,
                "more than 60 checks of one account were hashed: " + outcomes);
    }

    static io.restassured.response.Response passwordGrant(Platform.Person who) {
        return anonymous().accept("application/json").formParams(java.util.Map.of("grant_type", "password",
                "username", who.username(), "password", who.password())).post("/oauth/token");
    }
}
