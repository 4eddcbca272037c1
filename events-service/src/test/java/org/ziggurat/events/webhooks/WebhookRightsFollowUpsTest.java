package org.ziggurat.events.webhooks;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.NamespaceDirectoryDouble;
import org.ziggurat.platform.testing.TestTokens;
import org.ziggurat.platform.testing.WebhookReceiver;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ziggurat.platform.testing.NamespaceDirectoryDouble.ADMIN;
import static org.ziggurat.platform.testing.NamespaceDirectoryDouble.RECOVERED;

/**
 * Webhooks stop when the way they were made ends elsewhere, as the audit stream tells: a person's
 * grant to the application they were made through (auth-service), or the first recovery of an
 * account nobody had proven (directory-service). Tokens from before still pass the gateway for a
 * while, so within a grace after the end they neither make nor take on a webhook, and what was taken
 * on within it stops too; a late telling of an old end stops nothing taken on after its grace.
 */
@QuarkusTest
class WebhookRightsFollowUpsTest {

    static RequestSpecification as(long person, String clientId) {
        return given().header("X-Platform-Token", TestTokens.userWithClient(person, "p" + person, clientId, "admin", "write"));
    }

    static RequestSpecification through(String clientId) {
        return as(ADMIN, clientId);
    }

    static long webhook(RequestSpecification as, String namespace, String url, boolean active) {
        return as.contentType("application/json").body(Map.of("url", url, "active", active)).post("/" + namespace + "/webhooks")
                .then().statusCode(201).extract().jsonPath().getLong("id");
    }

    static void told(String service, String type, long person, Instant when, Map<String, Object> data) {
        given().header("X-Platform-Token", TestTokens.service(service)).contentType("application/json")
                .body(Map.of("source_id", ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE), "type", type,
                        "subject", "person/" + person, "actor_id", person, "time", when.toString(), "data", data))
                .post("/internal/audit-events").then().statusCode(204);
    }

    static String state(RequestSpecification as, String namespace, long id) {
        return as.get("/" + namespace + "/webhooks/" + id).then().statusCode(200).extract().path("state");
    }

    static String client(String name) {
        return name + "-" + ThreadLocalRandom.current().nextInt(1_000_000);
    }

    @Test
    void endingAnApplicationsAccessStopsTheWebhooksMadeThroughIt() {
        String notebook = client("notebook");
        String other = client("other");
        String tool = client("tool");
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            long made = webhook(through(notebook), "vault", receiver.url("/notebook"), true);
            long paused = webhook(through(notebook), "vault", receiver.url("/paused"), false);
            long otherApp = webhook(through(other), "vault", receiver.url("/other"), true);
            long own = webhook(through(null), "vault", receiver.url("/own"), true);
            long byTool = webhook(through(tool), "vault", receiver.url("/tool"), true);

            // Narrowed, but still admin: nothing changes.
            told("auth-service", "authorization.changed", ADMIN, Instant.now(), Map.of("person_id", ADMIN, "client_id", notebook,
                    "scopes", List.of("admin")));
            assertEquals("active", state(through(null), "vault", made));
            told("auth-service", "authorization.revoked", ADMIN, Instant.now(), Map.of("person_id", ADMIN, "client_id", notebook,
                    "scopes", List.of("admin")));
            through(null).get("/vault/webhooks/" + made).then().statusCode(200).body("state", equalTo("disabled"))
                    .body("disabled_reason", containsString("revoked the access of the application " + notebook));
            assertEquals("disabled", state(through(null), "vault", paused), "whatever its state");
            await().until(() -> NamespaceDirectoryDouble.ADMIN_NOTICES.stream().anyMatch(n -> n.namespace().equals("vault")
                    && n.kind().equals("webhook_creator_left") && n.body().contains("The webhook " + made + " ")));
            assertEquals("active", state(through(null), "vault", otherApp));
            assertEquals("active", state(through(null), "vault", own));

            // The application's tokens from before still pass the gateway a while: they neither make
            // nor take one on again. The admin's own token does, and answers for it.
            through(notebook).contentType("application/json").body(Map.of("active", true)).patch("/vault/webhooks/" + made)
                    .then().statusCode(403);
            through(notebook).contentType("application/json").body(Map.of("url", receiver.url("/x"))).post("/vault/webhooks")
                    .then().statusCode(403);
            through(null).contentType("application/json").body(Map.of("active", true)).patch("/vault/webhooks/" + made)
                    .then().statusCode(200).body("state", equalTo("active"));
            // Told again (a source retries): what the admin took on with their own token goes on.
            told("auth-service", "authorization.revoked", ADMIN, Instant.now(), Map.of("person_id", ADMIN, "client_id", notebook,
                    "scopes", List.of("admin")));
            assertEquals("active", state(through(null), "vault", made));

            // Narrowed below admin stops it too; the application's deletion stops whatever anyone made through it.
            told("auth-service", "authorization.changed", ADMIN, Instant.now(), Map.of("person_id", ADMIN, "client_id", other,
                    "scopes", List.of("user")));
            assertEquals("disabled", state(through(null), "vault", otherApp));
            told("auth-service", "application.deleted", ADMIN, Instant.now(), Map.of("client_id", tool, "application_id", 1));
            assertEquals("disabled", state(through(null), "vault", byTool));
            assertEquals("active", state(through(null), "vault", own));

            // An end told late (the relay was away): what was taken on after its grace goes on.
            String late = client("late");
            long afterTheGrace = webhook(through(late), "vault", receiver.url("/late"), true);
            told("auth-service", "authorization.revoked", ADMIN, Instant.now().minus(Duration.ofMinutes(10)),
                    Map.of("person_id", ADMIN, "client_id", late, "scopes", List.of("admin")));
            assertEquals("active", state(through(null), "vault", afterTheGrace));
            for (long id : List.of(made, paused, otherApp, own, byTool, afterTheGrace)) {
                through(null).delete("/vault/webhooks/" + id).then().statusCode(204);
            }
        }
    }

    /**
     * The first recovery of an account nobody had proven: the webhooks its maker set up stop, also
     * one taken on just after (a token from before), whatever their state; for the grace after it,
     * tokens from before make none.
     */
    @Test
    void theFirstRecoveryOfAnUnprovenAccountStopsTheWebhooksSetUpBefore() {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            long before = webhook(as(RECOVERED, null), "recovered", receiver.url("/before"), true);
            long paused = webhook(as(RECOVERED, "squatter-tool"), "recovered", receiver.url("/paused"), false);
            Instant recovered = Instant.now();
            long justAfter = webhook(as(RECOVERED, null), "recovered", receiver.url("/after"), true);
            told("directory-service", "account.unproven_access_removed", RECOVERED, recovered,
                    Map.of("person_id", RECOVERED, "kind", "unproven_access_removed"));
            as(RECOVERED, null).get("/recovered/webhooks/" + before).then().statusCode(200).body("state", equalTo("disabled"))
                    .body("disabled_reason", containsString("never proven it theirs"));
            assertEquals("disabled", state(as(RECOVERED, null), "recovered", paused));
            assertEquals("disabled", state(as(RECOVERED, null), "recovered", justAfter));
            as(RECOVERED, null).contentType("application/json").body(Map.of("url", receiver.url("/again")))
                    .post("/recovered/webhooks").then().statusCode(403);
            for (long id : List.of(before, paused, justAfter)) {
                as(RECOVERED, null).delete("/recovered/webhooks/" + id).then().statusCode(204);
            }
        }
    }

    /**
     * An end that its follow-up did not see stop a webhook (told while a token from before took it
     * on): the webhook's next delivery asks, in its claim, and is not sent; the webhook stops.
     */
    @Test
    void aDeliveryOfAWebhookTakenOnBeforeAnEndIsNotSent() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String notebook = client("notebook");
            String repository = "ended-" + ThreadLocalRandom.current().nextInt(1_000_000);
            long id = through(notebook).contentType("application/json").body(Map.of("url", receiver.url("/ended")))
                    .post("/vault/repositories/" + repository + "/webhooks").then().statusCode(201).extract().jsonPath().getLong("id");
            // The end as recorded, without the stop its follow-up makes.
            try (java.sql.Connection c = org.ziggurat.platform.testing.ServiceDatabase.connect();
                    java.sql.Statement s = c.createStatement()) {
                s.execute("INSERT INTO events.ended_access (person_id, client_id, ended_at) VALUES (" + ADMIN + ", '" + notebook
                        + "', now())");
            }
            through(null).contentType("application/json").body(Map.of("note", "after the end"))
                    .post("/vault/repositories/" + repository + "/data/events").then().statusCode(201);
            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> through(null)
                    .get("/vault/repositories/" + repository + "/webhooks/" + id).then().statusCode(200)
                    .body("state", equalTo("disabled")).body("disabled_reason", containsString("way to act ended")));
            assertEquals(0, receiver.received().size(), "nothing sent");
        }
    }
}
