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

    /** The operator with their own token: issued without a client (the password grant the platform's tools use). */
    static RequestSpecification asOperator(String... scopes) {
        return given().header("X-Platform-Token", TestTokens.userWithClient(OPERATOR, "operator", null, scopes));
    }

    /** The operator's token issued to an application (one they authorized with the admin scope). */
    static RequestSpecification asOperatorThroughAnApplication(String... scopes) {
        return given().header("X-Platform-Token", TestTokens.userWithClient(OPERATOR, "operator", "third-party", scopes));
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

    /**
     * Any application may ask a person for the admin scope: an operator's token issued to one (a
     * third party the operator authorized) reads no audit stream and manages no audit webhook.
     */
    @Test
    void anOperatorsTokenIssuedToAnApplicationIsNoOperators() {
        try (WebhookReceiver siem = new WebhookReceiver()) {
            long id = asOperator("admin").contentType("application/json").body(Map.of("url", siem.url("/own"), "active", false))
                    .post("/audit/webhooks").then().statusCode(201).extract().jsonPath().getLong("id");
            String hook = "/audit/webhooks/" + id;
            asOperatorThroughAnApplication("admin").get("/audit/events").then().statusCode(403)
                    .body("detail", containsString("own token (issued without a client)"));
            asOperatorThroughAnApplication("admin").contentType("application/json").body(Map.of("url", siem.url("/theirs")))
                    .post("/audit/webhooks").then().statusCode(403).body("detail", containsString("own token"));
            asOperatorThroughAnApplication("admin").get("/audit/webhooks").then().statusCode(403);
            asOperatorThroughAnApplication("admin").get(hook).then().statusCode(403);
            asOperatorThroughAnApplication("admin").contentType("application/json").body(Map.of("active", true)).patch(hook)
                    .then().statusCode(403);
            asOperatorThroughAnApplication("admin").post(hook + "/secret").then().statusCode(403);
            asOperatorThroughAnApplication("admin").get(hook + "/deliveries").then().statusCode(403);
            asOperatorThroughAnApplication("admin").delete(hook).then().statusCode(403);
            // Without the admin scope, the operator's own token is refused as before.
            given().header("X-Platform-Token", TestTokens.userWithClient(OPERATOR, "operator", null, "user"))
                    .get("/audit/events").then().statusCode(403);
            asOperator("admin").get(hook).then().statusCode(200).body("state", equalTo("paused"));
            asOperator("admin").delete(hook).then().statusCode(204);
        }
    }

    /**
     * An audit webhook stops when the person who answers for it is no longer an operator (here its
     * recorded creator is someone the configuration does not list), or when it was made with a
     * token issued to an application (as one made before the platform refused those): at its next
     * delivery nothing is sent and it is disabled with the reason; an operator's own token makes it
     * active again, and they answer for it from then on.
     */
    @Test
    void anAuditWebhookStopsWhenItsCreatorIsNoLongerAnOperatorOrUsedAnApplication() throws Exception {
        try (WebhookReceiver siem = new WebhookReceiver()) {
            long former = asOperator("admin").contentType("application/json")
                    .body(Map.of("url", siem.url("/former"), "events", List.of("account"))).post("/audit/webhooks").then()
                    .statusCode(201).extract().jsonPath().getLong("id");
            long throughApp = asOperator("admin").contentType("application/json")
                    .body(Map.of("url", siem.url("/app"), "events", List.of("account"))).post("/audit/webhooks").then()
                    .statusCode(201).extract().jsonPath().getLong("id");
            try (java.sql.Connection c = org.ziggurat.platform.testing.ServiceDatabase.connect();
                    java.sql.Statement s = c.createStatement()) {
                s.execute("UPDATE events.webhook_subscription SET creator_id = 991 WHERE id = " + former);
                s.execute("UPDATE events.webhook_subscription SET creator_client_id = 'third-party' WHERE id = " + throughApp);
            }
            asService("directory-service").contentType("application/json")
                    .body(change(sourceId(), "account.password_changed", "person/12")).post("/internal/audit-events").then()
                    .statusCode(204);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                asOperator("admin").get("/audit/webhooks/" + former).then().statusCode(200).body("state", equalTo("disabled"))
                        .body("disabled_reason", containsString("(person 991) is no longer one of the platform's operators"));
                asOperator("admin").get("/audit/webhooks/" + throughApp).then().statusCode(200).body("state", equalTo("disabled"))
                        .body("disabled_reason", containsString("made with a token issued to an application (third-party)"));
            });
            assertEquals(0, siem.received().size(), "nothing was sent");

            // The operator, with their own token, makes one active again: the queued event goes out.
            asOperator("admin").contentType("application/json").body(Map.of("active", true)).patch("/audit/webhooks/" + former)
                    .then().statusCode(200).body("state", equalTo("active"));
            await().atMost(Duration.ofSeconds(10)).until(() -> siem.received("/former").size() >= 1);
            assertEquals(0, siem.received("/app").size());
            asOperator("admin").queryParam("category", "webhook").queryParam("limit", 1000).get("/audit/events").then()
                    .statusCode(200).body("subject", hasItem("webhook/" + throughApp))
                    .body("type", hasItem("org.ziggurat.audit.webhook.disabled"));
            asOperator("admin").delete("/audit/webhooks/" + former).then().statusCode(204);
            asOperator("admin").delete("/audit/webhooks/" + throughApp).then().statusCode(204);
        }
    }

    /**
     * auth-service tells of the identity providers and resource servers operators manage (their own categories), and of an
     * application with every setting: one with the most redirect URIs, each as long as allowed.
     */
    @Test
    void identityProvidersAndAnApplicationsEverySettingAreTaken() {
        long provider = sourceId();
        asService("auth-service").contentType("application/json").body(Map.of("source_id", provider,
                        "type", "identity_provider.created", "subject", "identity_provider/campus-" + provider, "actor_id", OPERATOR,
                        "time", Instant.now().toString(), "data", Map.of("provider_id", "campus-" + provider, "kind", "oidc")))
                .post("/internal/audit-events").then().statusCode(204);
        asOperator("admin").queryParam("category", "identity_provider").queryParam("limit", 1000).get("/audit/events").then()
                .statusCode(200).body("subject", hasItem("identity_provider/campus-" + provider))
                .body("type", hasItem("org.ziggurat.audit.identity_provider.created"));
        // And of the resource servers they register (auth-service V37): refused, it held up the whole stream after it.
        long server = sourceId();
        asService("auth-service").contentType("application/json").body(Map.of("source_id", server,
                        "type", "resource_server.created", "subject", "resource_server/" + server, "actor_id", OPERATOR,
                        "time", Instant.now().toString(), "data", Map.of("identifier", "https://archive.example.org")))
                .post("/internal/audit-events").then().statusCode(204);
        asOperator("admin").queryParam("category", "resource_server").queryParam("limit", 1000).get("/audit/events").then()
                .statusCode(200).body("subject", hasItem("resource_server/" + server))
                .body("type", hasItem("org.ziggurat.audit.resource_server.created"));

        List<String> uris = new java.util.ArrayList<>();
        for (int i = 0; i < 10; i++) {
            uris.add("https://app.example.org/" + i + "/" + "x".repeat(1970));
        }
        Map<String, Object> settings = Map.of("application_id", 7, "redirect_uris", uris, "post_logout_redirect_uris", uris,
                "verified", true, "token_exchange", true, "password_grant", false, "access_token_format", "jwt");
        long application = sourceId();
        asService("auth-service").contentType("application/json").body(Map.of("source_id", application,
                        "type", "application.changed", "subject", "application/7", "actor_id", OPERATOR,
                        "time", Instant.now().toString(), "data", settings))
                .post("/internal/audit-events").then().statusCode(204);
        assertEquals(1, found("org.ziggurat.audit.application.changed", "application/7").stream()
                .filter(e -> e.get("id").equals(String.valueOf(application))).count());
        asService("auth-service").contentType("application/json").body(Map.of("source_id", sourceId(),
                        "type", "application.changed", "subject", "application/7", "time", Instant.now().toString(),
                        "data", Map.of("padding", "x".repeat(70_000))))
                .post("/internal/audit-events").then().statusCode(422).body("errors[0].field", equalTo("data"));
    }

    private CloudEvent cloudEvent(WebhookReceiver.Received r) {
        return new JsonFormat().deserialize(r.body());
    }
}
