package org.ziggurat.events.audit;

import io.cloudevents.CloudEvent;
import io.cloudevents.jackson.JsonFormat;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.TestTokens;
import org.ziggurat.platform.testing.WebhookReceiver;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.platform.testing.NamespaceDirectoryDouble.ALICE;

/**
 * The audit stream: what the services tell of (once, whoever tells it twice), the webhooks'
 * own changes, read by the operators only, and delivered to their audit webhooks as CloudEvents.
 */
@QuarkusTest
class AuditStreamTest {

    static final long OPERATOR = 990;

    static RequestSpecification asService(String service) {
        return given().header("X-Platform-Token", TestTokens.service(service));
    }

    static RequestSpecification asOperator(String... scopes) {
        return given().header("X-Platform-Token", TestTokens.user(OPERATOR, "operator", scopes));
    }

    static Map<String, Object> change(long sourceId, String type, String subject) {
        return Map.of("source_id", sourceId, "type", type, "subject", subject, "actor_id", ALICE,
                "time", Instant.now().toString(), "data", Map.of("organization_id", 7, "person_id", 12, "role", "member"));
    }

    static long sourceId() {
        return ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
    }

    /** Every event of the stream with this type and subject, through the operators' API, following its pages. */
    static List<Map<String, Object>> found(String type, String subject) {
        List<Map<String, Object>> all = new java.util.ArrayList<>();
        long after = 0;
        while (true) {
            List<Map<String, Object>> page = asOperator("admin").queryParam("after", after).queryParam("limit", 1000)
                    .get("/audit/events").then().statusCode(200).extract().path("");
            page.stream().filter(e -> e.get("type").equals(type) && e.get("subject").equals(subject)).forEach(all::add);
            if (page.size() < 1000) {
                return all;
            }
            after = ((Number) page.get(page.size() - 1).get("sequence")).longValue();
        }
    }

    @Test
    void aServiceTellsOfAChangeOnceAndTheOperatorsReadIt() {
        long id = sourceId();
        String subject = "organization/7/member/" + id;
        for (int i = 0; i < 2; i++) {
            asService("directory-service").contentType("application/json").body(change(id, "membership.added", subject))
                    .post("/internal/audit-events").then().statusCode(204);
        }
        List<Map<String, Object>> events = found("org.ziggurat.audit.membership.added", subject);
        assertEquals(1, events.size(), "told twice, recorded once");
        Map<String, Object> event = events.get(0);
        assertEquals("1.0", event.get("specversion"));
        assertEquals(String.valueOf(id), event.get("id"));
        assertEquals("urn:ziggurat:directory-service", event.get("source"));
        assertEquals("application/json", event.get("datacontenttype"));
        assertEquals(Map.of("organization_id", 7, "person_id", 12, "role", "member", "actor_id", (int) ALICE), event.get("data"));

        // Only the services that tell of changes; only the operators read.
        asService("vocab-service").contentType("application/json").body(change(sourceId(), "membership.added", subject))
                .post("/internal/audit-events").then().statusCode(403);
        given().header("X-Platform-Token", TestTokens.user(ALICE, "alice", "admin")).contentType("application/json")
                .body(change(sourceId(), "membership.added", subject)).post("/internal/audit-events").then().statusCode(403);
        asService("auth-service").contentType("application/json").body(change(sourceId(), "vault.opened", subject))
                .post("/internal/audit-events").then().statusCode(422).body("errors[0].field", equalTo("type"));
        asService("auth-service").contentType("application/json").body(Map.of("type", "application.created"))
                .post("/internal/audit-events").then().statusCode(422);
        given().get("/audit/events").then().statusCode(401);
        asOperator("user").get("/audit/events").then().statusCode(403);
        given().header("X-Platform-Token", TestTokens.user(ALICE, "alice", "admin")).get("/audit/events").then()
                .statusCode(403).body("detail", containsString("operators"));
        asOperator("admin").queryParam("category", "vault").get("/audit/events").then().statusCode(400);
        asOperator("admin").queryParam("limit", "0").get("/audit/events").then().statusCode(400);
        asOperator("admin").queryParam("category", "membership").queryParam("limit", 1).get("/audit/events").then()
                .statusCode(200).header("Link", containsString("rel=\"next\""));
    }

    @Test
    void aWebhooksChangesJoinTheStreamAndTheOperatorsWebhooksGetTheirCategories() {
        try (WebhookReceiver siem = new WebhookReceiver()) {
            var hook = asOperator("admin").contentType("application/json")
                    .body(Map.of("url", siem.url("/siem"), "events", List.of("membership", "webhook")))
                    .post("/audit/webhooks").then().statusCode(201)
                    .body("url", containsString("/audit/webhooks/")).body("namespace", equalTo(null))
                    .extract().jsonPath();
            // Another namespace's admin does not manage the operators' webhooks.
            given().header("X-Platform-Token", TestTokens.user(ALICE, "alice", "admin")).get("/audit/webhooks").then()
                    .statusCode(403);
            asOperator("admin").contentType("application/json").body(Map.of("url", siem.url("/x"), "events", List.of("FileUpload")))
                    .post("/audit/webhooks").then().statusCode(422).body("errors[0].field", equalTo("events"));

            long membership = sourceId();
            asService("directory-service").contentType("application/json")
                    .body(change(membership, "membership.removed", "organization/7/member/" + membership))
                    .post("/internal/audit-events").then().statusCode(204);
            asService("directory-service").contentType("application/json")
                    .body(change(sourceId(), "account.password_changed", "person/12"))
                    .post("/internal/audit-events").then().statusCode(204);
            // A namespace's admin adds a webhook: the stream tells of it, with who did it.
            long alicesHook = given().header("X-Platform-Token", TestTokens.user(ALICE, "alice", "admin"))
                    .contentType("application/json").body(Map.of("url", siem.url("/alice"), "active", false))
                    .post("/alice/repositories/audited/webhooks").then().statusCode(201).extract().jsonPath().getLong("id");

            await().atMost(Duration.ofSeconds(10)).until(() -> siem.received("/siem").stream().map(this::cloudEvent)
                    .anyMatch(e -> e.getSubject().equals("webhook/" + alicesHook)));
            List<CloudEvent> got = siem.received("/siem").stream().map(this::cloudEvent).toList();
            siem.received("/siem").forEach(r -> WebhookReceiver.verify(r, hook.getString("secret")));
            CloudEvent removed = got.stream().filter(e -> e.getId().equals(String.valueOf(membership))).findFirst().orElseThrow();
            assertEquals("org.ziggurat.audit.membership.removed", removed.getType());
            assertEquals("urn:ziggurat:directory-service", removed.getSource().toString());
            CloudEvent created = got.stream().filter(e -> e.getSubject().equals("webhook/" + alicesHook)).findFirst().orElseThrow();
            assertEquals("org.ziggurat.audit.webhook.created", created.getType());
            assertEquals("urn:ziggurat:events-service", created.getSource().toString());
            String data = new String(created.getData().toBytes(), StandardCharsets.UTF_8);
            assertTrue(data.contains("\"actor_id\":" + ALICE) && data.contains("\"namespace\":\"alice\""), data);
            assertTrue(got.stream().noneMatch(e -> e.getType().startsWith("org.ziggurat.audit.account.")),
                    "a category the webhook did not take is not sent");
            // The operators read the same in the stream.
            asOperator("admin").queryParam("category", "webhook").queryParam("limit", 1000).get("/audit/events").then()
                    .statusCode(200).body("subject", hasItem("webhook/" + alicesHook))
                    .body("type", not(hasItem("org.ziggurat.audit.account.password_changed")));
            asOperator("admin").delete("/audit/webhooks/" + hook.getLong("id")).then().statusCode(204);
        }
    }

    private CloudEvent cloudEvent(WebhookReceiver.Received r) {
        return new JsonFormat().deserialize(r.body());
    }
}
