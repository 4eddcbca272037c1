package org.ziggurat.events.webhooks;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.NamespaceDirectoryDouble;
import org.ziggurat.platform.testing.TestTokens;
import org.ziggurat.platform.testing.WebhookReceiver;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.ziggurat.platform.testing.NamespaceDirectoryDouble.ADMIN;

/**
 * A webhook made with a person's token issued to an application answers to their grant to it: when
 * auth-service tells the stream the grant was revoked (or narrowed below admin, or the application
 * deleted), the webhooks made through it stop, their admins are told, and the others go on.
 */
@QuarkusTest
class WebhookRightsFollowUpsTest {

    static RequestSpecification through(String clientId) {
        return given().header("X-Platform-Token", TestTokens.userWithClient(ADMIN, "admin", clientId, "admin", "write"));
    }

    static long webhook(RequestSpecification as, String url) {
        return as.contentType("application/json").body(Map.of("url", url)).post("/vault/webhooks").then().statusCode(201)
                .extract().jsonPath().getLong("id");
    }

    static void toldByAuth(String type, Map<String, Object> data) {
        given().header("X-Platform-Token", TestTokens.service("auth-service")).contentType("application/json")
                .body(Map.of("source_id", ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE), "type", type,
                        "subject", "person/" + ADMIN + "/application/1", "actor_id", ADMIN, "time", Instant.now().toString(),
                        "data", data))
                .post("/internal/audit-events").then().statusCode(204);
    }

    static String state(long id) {
        return through(null).get("/vault/webhooks/" + id).then().statusCode(200).extract().path("state");
    }

    @Test
    void revokingAnApplicationStopsTheWebhooksItMade() {
        String notebook = "notebook-" + ThreadLocalRandom.current().nextInt(1_000_000);
        String other = "other-" + ThreadLocalRandom.current().nextInt(1_000_000);
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            long made = webhook(through(notebook), receiver.url("/notebook"));
            long otherApp = webhook(through(other), receiver.url("/other"));
            long own = webhook(through(null), receiver.url("/own"));

            // Narrowed, but still admin: nothing changes.
            toldByAuth("authorization.changed", Map.of("person_id", ADMIN, "client_id", notebook, "scopes", List.of("admin")));
            toldByAuth("authorization.revoked", Map.of("person_id", ADMIN, "client_id", notebook, "scopes", List.of("admin")));
            through(null).get("/vault/webhooks/" + made).then().statusCode(200).body("state", equalTo("disabled"))
                    .body("disabled_reason", containsString("revoked the access of the application " + notebook));
            await().until(() -> NamespaceDirectoryDouble.ADMIN_NOTICES.stream().anyMatch(n -> n.namespace().equals("vault")
                    && n.kind().equals("webhook_creator_left") && n.body().contains("The webhook " + made + " ")));
            List.of(otherApp, own).forEach(id -> org.junit.jupiter.api.Assertions.assertEquals("active", state(id)));

            // Told again (a retry): nothing more happens.
            toldByAuth("authorization.revoked", Map.of("person_id", ADMIN, "client_id", notebook, "scopes", List.of("admin")));

            // Narrowed below admin stops it too; the application's deletion stops whatever anyone made through it.
            toldByAuth("authorization.changed", Map.of("person_id", ADMIN, "client_id", other, "scopes", List.of("user")));
            org.junit.jupiter.api.Assertions.assertEquals("disabled", state(otherApp));
            through(null).contentType("application/json").body(Map.of("active", true)).patch("/vault/webhooks/" + otherApp)
                    .then().statusCode(200).body("state", equalTo("active"));
            long againThrough = webhook(through(other), receiver.url("/again"));
            toldByAuth("application.deleted", Map.of("client_id", other, "application_id", 1));
            org.junit.jupiter.api.Assertions.assertEquals("disabled", state(againThrough));
            org.junit.jupiter.api.Assertions.assertEquals("active", state(otherApp), "made active again with an own token");
            org.junit.jupiter.api.Assertions.assertEquals("active", state(own));
            for (long id : List.of(made, otherApp, own, againThrough)) {
                through(null).delete("/vault/webhooks/" + id).then().statusCode(204);
            }
        }
    }

    /**
     * The first recovery of an account nobody had proven: the webhooks its maker set up before stop
     * (the namespace is the address's owner's now); one made after the recovery goes on.
     */
    @Test
    void theFirstRecoveryOfAnUnprovenAccountStopsTheWebhooksSetUpBefore() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            long before = webhook(through(null), receiver.url("/before"));
            Thread.sleep(5);
            Instant recovered = Instant.now();
            Thread.sleep(5);
            long after = webhook(through(null), receiver.url("/after"));
            given().header("X-Platform-Token", TestTokens.service("directory-service")).contentType("application/json")
                    .body(Map.of("source_id", ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE),
                            "type", "account.unproven_access_removed", "subject", "person/" + ADMIN, "actor_id", ADMIN,
                            "time", recovered.toString(), "data", Map.of("person_id", ADMIN, "kind", "unproven_access_removed")))
                    .post("/internal/audit-events").then().statusCode(204);
            through(null).get("/vault/webhooks/" + before).then().statusCode(200).body("state", equalTo("disabled"))
                    .body("disabled_reason", containsString("never proven it theirs"));
            org.junit.jupiter.api.Assertions.assertEquals("active", state(after));
            for (long id : List.of(before, after)) {
                through(null).delete("/vault/webhooks/" + id).then().statusCode(204);
            }
        }
    }
}
