package org.ziggurat.events.webhooks;

import io.cloudevents.CloudEvent;
import io.cloudevents.jackson.JsonFormat;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.NamespaceDirectoryDouble;
import org.ziggurat.platform.testing.ServiceDatabase;
import org.ziggurat.platform.testing.TestTokens;
import org.ziggurat.platform.testing.WebhookReceiver;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.platform.testing.NamespaceDirectoryDouble.ADMIN;
import static org.ziggurat.platform.testing.NamespaceDirectoryDouble.ALICE;
import static org.ziggurat.platform.testing.NamespaceDirectoryDouble.BOB;

/**
 * Webhooks against a real receiver over HTTP: signed deliveries a Standard Webhooks check
 * verifies and the CloudEvents SDK reads, retries, order, the log and redeliveries, who may manage
 * them, and the targets refused.
 */
@QuarkusTest
class WebhooksTest {

    static RequestSpecification asAlice(String... scopes) {
        return given().header("X-Platform-Token", TestTokens.user(ALICE, "alice", scopes));
    }

    static String repo() {
        return "hooked-" + UUID.randomUUID().toString().substring(0, 8);
    }

    static ValidatableResponse post(RequestSpecification as, String path, Object body) {
        return as.contentType("application/json").body(body).post(path).then();
    }

    /** A repository's webhook to the receiver's path; the answer (with its secret). */
    static ValidatableResponse subscribe(String repository, String url, Object... more) {
        Map<String, Object> body = new java.util.HashMap<>(Map.of("url", url));
        for (int i = 0; i < more.length; i += 2) {
            body.put((String) more[i], more[i + 1]);
        }
        return post(asAlice("admin"), "/alice/repositories/" + repository + "/webhooks", body);
    }

    static long record(String repository, String note) {
        return post(asAlice("write"), "/alice/repositories/" + repository + "/data/events",
                Map.of("kind", "FileUpload", "note", note)).statusCode(201).extract().jsonPath().getLong("id");
    }

    static CloudEvent cloudEvent(WebhookReceiver.Received r) {
        return new JsonFormat().deserialize(r.body());
    }

    @Test
    void aDeliveryArrivesSignedAsACloudEventThatVerifies() {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String repository = repo();
            var made = subscribe(repository, receiver.url("/hook"), "events", List.of("FileUpload"), "description", "indexer")
                    .statusCode(201)
                    .header("Location", matchesPattern(".*/alice/repositories/" + repository + "/webhooks/\\d+"))
                    .body("secret", startsWith("whsec_"))
                    .body("target_url", equalTo(receiver.url("/hook")))
                    .body("events", equalTo(List.of("FileUpload")))
                    .body("repository", equalTo(repository))
                    .body("active", equalTo(true))
                    .body("state", equalTo("active"))
                    .extract().jsonPath();
            String secret = made.getString("secret");
            String hook = "/alice/repositories/" + repository + "/webhooks/" + made.getLong("id");
            // The secret is shown once.
            asAlice("admin").get(hook).then().statusCode(200).body("secret", nullValue()).body("description", equalTo("indexer"));
            // An event of another kind is not sent.
            post(asAlice("write"), "/alice/repositories/" + repository + "/data/events", Map.of("kind", "Fork", "note", "no"))
                    .statusCode(201);
            long id = record(repository, "Uploaded a table");

            await().atMost(Duration.ofSeconds(15)).until(() -> receiver.received("/hook").size() == 1);
            WebhookReceiver.Received r = receiver.received("/hook").get(0);
            WebhookReceiver.verify(r, secret);
            assertThrows(AssertionError.class, () -> WebhookReceiver.verify(r, "whsec_" + java.util.Base64.getEncoder()
                    .encodeToString(new byte[32])), "another secret does not verify");
            assertEquals("application/cloudevents+json; charset=utf-8", r.header("content-type"));
            assertTrue(r.header("webhook-id").startsWith("msg_"));
            CloudEvent event = cloudEvent(r);
            assertEquals("1.0", event.getSpecVersion().toString());
            assertEquals(String.valueOf(id), event.getId());
            assertEquals("org.ziggurat.data.FileUpload", event.getType());
            assertTrue(event.getSource().toString().endsWith("/alice/repositories/" + repository), event.getSource().toString());
            assertEquals("data/events/" + id, event.getSubject());
            assertNotNull(event.getTime());
            assertEquals("application/json", event.getDataContentType());
            String data = new String(event.getData().toBytes(), StandardCharsets.UTF_8);
            assertTrue(data.contains("\"note\":\"Uploaded a table\""), data);
            assertTrue(data.contains("\"creator\":{\"username\":\"alice\""), data);

            // The log: one delivery, delivered at the first attempt, with the answer's status; not
            // its body ("thanks"): the receiver is on a loopback address the operator allowed, and
            // the log keeps no answer of a target that is not public (it would read an internal
            // endpoint back). WebhookRulesTest shows a public target's answer kept.
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> asAlice("admin").get(hook + "/deliveries").then()
                    .statusCode(200).body("", hasSize(1))
                    .body("[0].state", equalTo("delivered"))
                    .body("[0].event_id", equalTo((int) id))
                    .body("[0].webhook_id", equalTo(r.header("webhook-id")))
                    .body("[0].attempts", equalTo(1))
                    .body("[0].attempt_log[0].status", equalTo(200))
                    .body("[0].attempt_log[0].answer", equalTo("")));
        }
    }

    @Test
    void aReceiverThatFailsThreeTimesGetsTheEventEachTimeThenOnceAccepted() {
        AtomicInteger calls = new AtomicInteger();
        try (WebhookReceiver receiver = new WebhookReceiver().answering(r -> calls.incrementAndGet() <= 3
                ? new WebhookReceiver.Answer(500, "down for maintenance", Duration.ZERO, Map.of())
                : WebhookReceiver.Answer.status(204))) {
            String repository = repo();
            var made = subscribe(repository, receiver.url("/flaky")).statusCode(201).extract().jsonPath();
            long id = record(repository, "retried");
            await().atMost(Duration.ofSeconds(20)).until(() -> receiver.received("/flaky").size() >= 4);
            String hook = "/alice/repositories/" + repository + "/webhooks/" + made.getLong("id");
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> asAlice("admin").get(hook + "/deliveries").then()
                    .body("[0].state", equalTo("delivered")));
            // Accepted once: nothing more comes (the next poll rounds find it delivered).
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4)).until(() -> receiver.received("/flaky").size() == 4);
            List<WebhookReceiver.Received> got = receiver.received("/flaky");
            // The same event, under the same webhook-id, each time; each signed.
            assertEquals(1, got.stream().map(r -> r.header("webhook-id")).distinct().count());
            got.forEach(r -> {
                WebhookReceiver.verify(r, made.getString("secret"));
                assertEquals(String.valueOf(id), cloudEvent(r).getId());
            });
            // Backoff: the waits grow (first retry 400 ms in tests, halved at most by jitter).
            long firstWait = Duration.between(got.get(0).at(), got.get(1).at()).toMillis();
            assertTrue(firstWait >= 180, "retried after " + firstWait + " ms");
            long deliveryId = asAlice("admin").get(hook + "/deliveries").then().extract().jsonPath().getLong("[0].id");
            asAlice("admin").get(hook + "/deliveries/" + deliveryId).then().statusCode(200)
                    .body("attempts", equalTo(4))
                    .body("attempt_log", hasSize(4))
                    .body("attempt_log[0].status", equalTo(500))
                    // Not "down for maintenance": no answer of a target that is not public is kept.
                    .body("attempt_log[0].answer", equalTo(""))
                    .body("attempt_log[3].status", equalTo(204));
        }
    }

    @Test
    void aRepositorysEventsArriveInOrderOnceTheReceiverIsBack() {
        AtomicInteger up = new AtomicInteger();
        try (WebhookReceiver receiver = new WebhookReceiver().answering(r -> up.get() == 0
                ? WebhookReceiver.Answer.status(503) : WebhookReceiver.Answer.status(200))) {
            String repository = repo();
            subscribe(repository, receiver.url("/ordered")).statusCode(201);
            List<Long> ids = IntStream.range(0, 6).mapToObj(i -> record(repository, "event " + i)).toList();
            // While the head fails, the rest wait behind it: only the first event is tried.
            await().atMost(Duration.ofSeconds(10)).until(() -> receiver.received("/ordered").size() >= 2);
            assertTrue(receiver.received("/ordered").stream().allMatch(r -> cloudEvent(r).getId().equals(String.valueOf(ids.get(0)))),
                    "only the head of the lane is tried while it fails");
            up.set(1);
            await().atMost(Duration.ofSeconds(15)).until(() -> receiver.received("/ordered").stream()
                    .map(r -> cloudEvent(r).getId()).distinct().count() == ids.size());
            List<String> accepted = receiver.received("/ordered").stream().skip(receiver.received("/ordered").size() - 5)
                    .map(r -> cloudEvent(r).getId()).toList();
            assertEquals(ids.subList(1, 6).stream().map(String::valueOf).toList(), accepted, "in the order recorded");
        }
    }

    @Test
    void onlyTheNamespacesAdminsManageItsWebhooks() {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            Map<String, Object> body = Map.of("url", receiver.url("/x"));
            given().contentType("application/json").body(body).post("/alice/webhooks").then().statusCode(401);
            post(asAlice("write"), "/alice/webhooks", body).statusCode(403).body("detail", containsString("admin"));
            // bob may read alice's namespace, not administer it.
            post(given().header("X-Platform-Token", TestTokens.user(BOB, "bob", "admin")), "/alice/webhooks", body)
                    .statusCode(403).body("detail", containsString("admins of 'alice'"));
            // In the private organization vault: bob is a member (403), its admin may, alice is a stranger (404).
            post(given().header("X-Platform-Token", TestTokens.user(BOB, "bob", "admin")), "/vault/webhooks", body)
                    .statusCode(403);
            post(asAlice("admin"), "/vault/webhooks", body).statusCode(404);
            var asAdmin = given().header("X-Platform-Token", TestTokens.user(ADMIN, "admin", "admin"));
            long id = post(asAdmin, "/vault/webhooks", body).statusCode(201).body("repository", nullValue())
                    .extract().jsonPath().getLong("id");
            given().header("X-Platform-Token", TestTokens.user(ADMIN, "admin", "admin")).get("/vault/webhooks").then()
                    .statusCode(200).body("id", org.hamcrest.Matchers.hasItem((int) id));
            // Another namespace's or a repository's path does not find it.
            asAlice("admin").get("/alice/webhooks/" + id).then().statusCode(404);
            given().header("X-Platform-Token", TestTokens.user(ADMIN, "admin", "admin"))
                    .get("/vault/repositories/r/webhooks/" + id).then().statusCode(404);
            given().header("X-Platform-Token", TestTokens.user(BOB, "bob", "admin")).get("/vault/webhooks/" + id).then()
                    .statusCode(403);
            given().header("X-Platform-Token", TestTokens.user(BOB, "bob", "admin")).delete("/vault/webhooks/" + id).then()
                    .statusCode(403);
            given().header("X-Platform-Token", TestTokens.user(ADMIN, "admin", "admin")).delete("/vault/webhooks/" + id).then()
                    .statusCode(204);
            given().header("X-Platform-Token", TestTokens.user(ADMIN, "admin", "admin")).get("/vault/webhooks/" + id).then()
                    .statusCode(404);
        }
    }

    /**
     * An organization that requires a second factor ("strict") holds its webhooks to it, as its
     * data: its admin alice, who has one, is asked to sign in with it (RFC 9470's 401) on every
     * webhook route, then manages them; bob, a member without one, is told to set one up.
     */
    @Test
    void anOrganizationsRequirementOfASecondFactorHoldsForItsWebhooks() {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            Map<String, Object> body = Map.of("url", receiver.url("/strict"), "active", false);
            java.util.function.Supplier<RequestSpecification> signedInWithout = () -> asAlice("admin");
            java.util.function.Supplier<RequestSpecification> signedInWithIt = () -> given().header("X-Platform-Token",
                    TestTokens.userWithSecondFactor(ALICE, "alice", "admin"));
            stepUpAsked(post(signedInWithout.get(), "/strict/webhooks", body));
            stepUpAsked(post(signedInWithout.get(), "/strict/repositories/" + repo() + "/webhooks", body));
            post(given().header("X-Platform-Token", TestTokens.user(BOB, "bob", "admin")), "/strict/webhooks", body)
                    .statusCode(403).body("title", equalTo("Second Factor Required"));
            post(given().header("X-Platform-Token", TestTokens.userWithSecondFactor(BOB, "bob", "admin")), "/strict/webhooks", body)
                    .statusCode(403).body("title", equalTo("Second Factor Required"));

            String hook = "/strict/webhooks/" + post(signedInWithIt.get(), "/strict/webhooks", body).statusCode(201)
                    .extract().jsonPath().getLong("id");
            stepUpAsked(signedInWithout.get().get("/strict/webhooks").then());
            stepUpAsked(signedInWithout.get().get(hook).then());
            stepUpAsked(signedInWithout.get().contentType("application/json").body(Map.of("active", true)).patch(hook).then());
            stepUpAsked(signedInWithout.get().post(hook + "/secret").then());
            stepUpAsked(signedInWithout.get().get(hook + "/deliveries").then());
            stepUpAsked(post(signedInWithout.get(), hook + "/redeliveries", Map.of("since", "2020-01-01T00:00:00Z")));
            stepUpAsked(signedInWithout.get().delete(hook).then());
            signedInWithIt.get().get(hook).then().statusCode(200).body("active", equalTo(false));
            signedInWithIt.get().delete(hook).then().statusCode(204);
        }
    }

    /** A 401 whose Bearer challenge asks for a sign-in with a second factor (RFC 9470 §3). */
    static void stepUpAsked(ValidatableResponse answer) {
        answer.statusCode(401).body("title", equalTo("Insufficient User Authentication"))
                .header("WWW-Authenticate", org.hamcrest.Matchers.allOf(containsString("error=\"insufficient_user_authentication\""),
                        containsString("acr_values=\"https://refeds.org/profile/mfa\"")));
    }

    @Test
    void badInputIsNamed() {
        String hooks = "/alice/repositories/" + repo() + "/webhooks";
        post(asAlice("admin"), hooks, Map.of()).statusCode(422).body("errors[0].field", equalTo("url"));
        post(asAlice("admin"), hooks, Map.of("url", "https://example.org/x", "events", "FileUpload")).statusCode(422)
                .body("errors[0].field", equalTo("events"));
        post(asAlice("admin"), hooks, Map.of("url", "https://example.org/x", "events", List.of("Push"))).statusCode(422)
                .body("errors[0].field", equalTo("events"));
        post(asAlice("admin"), hooks, Map.of("url", "https://example.org/x", "active", "yes")).statusCode(422)
                .body("errors[0].field", equalTo("active"));
        post(asAlice("admin"), hooks, Map.of("url", "https://example.org/x", "description", "d".repeat(256))).statusCode(422)
                .body("errors[0].field", equalTo("description"));
        asAlice("admin").contentType("application/json").body("{not json").post(hooks).then().statusCode(400);
        asAlice("admin").contentType("application/json").body("[]").post(hooks).then().statusCode(400);
        asAlice("admin").get(hooks + "/abc").then().statusCode(404);
        asAlice("admin").get(hooks + "/99999999999").then().statusCode(404);
        asAlice("admin").get(hooks + "/1/deliveries?state=lost").then().statusCode(400);
        asAlice("admin").get("/alice/repositories/..%2F..%2Fx/webhooks").then().statusCode(404);
    }

    @Test
    void targetsInsideThePlatformsNetworkAreRefused() {
        String hooks = "/alice/repositories/" + repo() + "/webhooks";
        for (String url : List.of("http://10.0.0.1/hook", "https://10.1.2.3/hook", "https://169.254.169.254/latest/meta-data",
                "https://192.168.1.1/", "https://172.16.0.5/", "https://100.64.0.1/", "https://[::1]/", "https://[fd00::1]/",
                "https://[::ffff:10.0.0.1]/", "https://0.0.0.0/", "http://127.0.0.2:8080/", "https://[fe80::1]/")) {
            post(asAlice("admin"), hooks, Map.of("url", url)).statusCode(422).body("errors[0].field", equalTo("url"))
                    .body("errors[0].message", containsString("private or reserved"));
        }
        for (String url : List.of("ftp://example.org/", "file:///etc/passwd", "https://user:pw@example.org/", "/relative",
                "https://example.org/#frag", "gopher://127.0.0.1/")) {
            post(asAlice("admin"), hooks, Map.of("url", url)).statusCode(422).body("errors[0].field", equalTo("url"));
        }
    }

    @Test
    void aRedirectIsNotFollowedAndATargetThatTurnedPrivateIsNotCalled() throws Exception {
        try (WebhookReceiver inside = new WebhookReceiver();
                WebhookReceiver redirecting = new WebhookReceiver().answering(r -> new WebhookReceiver.Answer(307, "",
                        Duration.ZERO, Map.of("Location", inside.url("/internal-admin"))))) {
            String repository = repo();
            var made = subscribe(repository, redirecting.url("/hook")).statusCode(201).extract().jsonPath();
            record(repository, "redirected");
            String hook = "/alice/repositories/" + repository + "/webhooks/" + made.getLong("id");
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> asAlice("admin").get(hook + "/deliveries").then()
                    .body("[0].attempt_log[0].status", equalTo(307)).body("[0].state", equalTo("pending")));
            assertEquals(0, inside.received().size(), "the redirect was not followed");

            // A target saved when allowed that is no longer (here: its row changed under it, as a
            // DNS answer could): the attempt is refused before any connection.
            String other = repo();
            var second = subscribe(other, inside.url("/hook")).statusCode(201).extract().jsonPath();
            try (Connection c = ServiceDatabase.connect(); Statement s = c.createStatement()) {
                s.execute("UPDATE events.webhook_subscription SET target_url = 'http://127.0.0.3:" + inside.port()
                        + "/hook' WHERE id = " + second.getLong("id"));
            }
            record(other, "to a private address");
            String secondHook = "/alice/repositories/" + other + "/webhooks/" + second.getLong("id");
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> asAlice("admin").get(secondHook + "/deliveries").then()
                    .body("[0].attempt_log[0].error", containsString("private or reserved")));
            assertEquals(0, inside.received().size());
        }
    }

    @Test
    void aTimeoutIsAFailedAttemptAndOnlyItsLaneWaits() {
        try (WebhookReceiver slow = new WebhookReceiver().answering(r -> new WebhookReceiver.Answer(200, "", Duration.ofSeconds(5),
                Map.of()));
                WebhookReceiver quick = new WebhookReceiver()) {
            String slowRepo = repo();
            String quickRepo = repo();
            var made = subscribe(slowRepo, slow.url("/slow")).statusCode(201).extract().jsonPath();
            subscribe(quickRepo, quick.url("/quick")).statusCode(201);
            record(slowRepo, "to a slow receiver");
            await().atMost(Duration.ofSeconds(5)).until(() -> slow.received().size() == 1);
            // While the slow receiver holds its delivery, the other lane is delivered at once.
            record(quickRepo, "to a quick receiver");
            await().atMost(Duration.ofSeconds(2)).until(() -> quick.received().size() == 1);
            String hook = "/alice/repositories/" + slowRepo + "/webhooks/" + made.getLong("id");
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> asAlice("admin").get(hook + "/deliveries").then()
                    .body("[0].attempt_log[0].error", equalTo("no answer within the timeout"))
                    .body("[0].state", equalTo("pending")));
            asAlice("admin").contentType("application/json").body(Map.of("active", false)).patch(hook).then().statusCode(200)
                    .body("state", equalTo("paused"));
        }
    }

    @Test
    void aReceiverThatIsGoneDisablesTheWebhookTellsTheAdminsAndIsRedeliveredLater() {
        AtomicInteger gone = new AtomicInteger(1);
        try (WebhookReceiver receiver = new WebhookReceiver().answering(r -> gone.get() == 1
                ? WebhookReceiver.Answer.status(410) : WebhookReceiver.Answer.status(200))) {
            String repository = repo();
            var made = subscribe(repository, receiver.url("/gone")).statusCode(201).extract().jsonPath();
            String hook = "/alice/repositories/" + repository + "/webhooks/" + made.getLong("id");
            Instant before = Instant.now().minusSeconds(1);
            long first = record(repository, "first");
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> asAlice("admin").get(hook).then()
                    .body("state", equalTo("disabled")).body("active", equalTo(false))
                    .body("disabled_reason", containsString("410")));
            await().atMost(Duration.ofSeconds(10)).until(() -> NamespaceDirectoryDouble.ADMIN_NOTICES.stream()
                    .anyMatch(n -> n.namespace().equals("alice") && n.kind().equals("webhook_disabled")
                            && n.body().contains(repository)));
            // Disabled: what is recorded meanwhile is queued, not sent.
            long second = record(repository, "second");
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> receiver.received().size() == 1);
            gone.set(0);
            asAlice("admin").contentType("application/json").body(Map.of("active", true)).patch(hook).then().statusCode(200)
                    .body("state", equalTo("active")).body("disabled_reason", nullValue());
            // The failed one is not sent again until redelivered; the queued one waits behind nothing.
            await().atMost(Duration.ofSeconds(10)).until(() -> receiver.received().size() == 2);
            assertEquals(String.valueOf(second), cloudEvent(receiver.received().get(1)).getId());
            asAlice("admin").contentType("application/json").body(Map.of("since", before.toString()))
                    .post(hook + "/redeliveries").then().statusCode(202).body("redelivered", equalTo(1));
            await().atMost(Duration.ofSeconds(10)).until(() -> receiver.received().size() == 3);
            WebhookReceiver.Received again = receiver.received().get(2);
            assertEquals(String.valueOf(first), cloudEvent(again).getId());
            assertEquals(receiver.received().get(0).header("webhook-id"), again.header("webhook-id"), "the same webhook-id");
            // One delivery redelivered by hand; while it is pending, 409.
            long deliveryId = asAlice("admin").get(hook + "/deliveries?state=delivered").then().statusCode(200)
                    .extract().jsonPath().getLong("[0].id");
            asAlice("admin").post(hook + "/deliveries/" + deliveryId + "/redeliver").then().statusCode(202);
            await().atMost(Duration.ofSeconds(10)).until(() -> receiver.received().size() == 4);
            asAlice("admin").post(hook + "/deliveries/99999999/redeliver").then().statusCode(404);
        }
    }

    @Test
    void aDeliveryFailingForTheWholeRetryPeriodDisablesTheWebhook() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver().answering(r -> WebhookReceiver.Answer.status(502))) {
            String repository = repo();
            var made = subscribe(repository, receiver.url("/down")).statusCode(201).extract().jsonPath();
            String hook = "/alice/repositories/" + repository + "/webhooks/" + made.getLong("id");
            record(repository, "never accepted");
            await().atMost(Duration.ofSeconds(10)).until(() -> receiver.received().size() >= 2);
            // Three days pass (the default retry period): the delivery's first attempt is that old.
            try (Connection c = ServiceDatabase.connect(); Statement s = c.createStatement()) {
                s.execute("UPDATE events.webhook_delivery SET first_attempt_at = now() - interval '3 days' "
                        + "WHERE subscription_id = " + made.getLong("id"));
            }
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> asAlice("admin").get(hook).then()
                    .body("state", equalTo("disabled")).body("disabled_reason", containsString("502")));
            asAlice("admin").get(hook + "/deliveries").then().body("[0].state", equalTo("failed"))
                    .body("[0].finished_at", notNullValue());
        }
    }

    /**
     * A webhook stops when the person who answers for it loses the rights that made it: here bob,
     * who made vault's webhook while its admin (recorded as its creator) and is only a member now,
     * as the directory says. At the next delivery nothing is sent, the webhook is disabled with the
     * reason, the admins who remain are told, and the stream records it; an admin who makes it
     * active again answers for it from then on, and the queued event goes out.
     */
    @Test
    void aWebhookWhoseCreatorIsNoLongerAnAdminStopsAndTheRemainingAdminsAreTold() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            var asAdmin = (java.util.function.Supplier<RequestSpecification>) () -> given().header("X-Platform-Token",
                    TestTokens.user(ADMIN, "admin", "admin", "write"));
            String repository = repo();
            long id = post(asAdmin.get(), "/vault/repositories/" + repository + "/webhooks", Map.of("url", receiver.url("/vault")))
                    .statusCode(201).extract().jsonPath().getLong("id");
            String hook = "/vault/repositories/" + repository + "/webhooks/" + id;
            try (Connection c = ServiceDatabase.connect(); Statement s = c.createStatement()) {
                s.execute("UPDATE events.webhook_subscription SET creator_id = " + BOB + " WHERE id = " + id);
            }
            long event = post(asAdmin.get(), "/vault/repositories/" + repository + "/data/events", Map.of("note", "after bob's demotion"))
                    .statusCode(201).extract().jsonPath().getLong("id");

            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> asAdmin.get().get(hook).then().statusCode(200)
                    .body("state", equalTo("disabled")).body("active", equalTo(false))
                    .body("disabled_reason", containsString("person " + BOB + ") is no longer an admin of vault")));
            await().atMost(Duration.ofSeconds(10)).until(() -> NamespaceDirectoryDouble.ADMIN_NOTICES.stream()
                    .anyMatch(n -> n.namespace().equals("vault") && n.kind().equals("webhook_creator_left")
                            && n.body().contains("The webhook " + id + " ") && n.body().contains("no longer an admin")));
            // Nothing was sent, nor counted as an attempt: the delivery waits, queued.
            asAdmin.get().get(hook + "/deliveries").then().statusCode(200).body("", hasSize(1))
                    .body("[0].state", equalTo("pending")).body("[0].attempts", equalTo(0));
            assertEquals(0, receiver.received().size());
            try (Connection c = ServiceDatabase.connect(); Statement s = c.createStatement();
                    java.sql.ResultSet rows = s.executeQuery("SELECT count(*) FROM events.audit_event WHERE type = "
                            + "'webhook.disabled' AND subject = 'webhook/" + id + "' AND data->>'creator_id' = '" + BOB + "'")) {
                rows.next();
                assertEquals(1, rows.getInt(1), "the stream records it");
            }

            // An admin who still is makes it active again, and answers for it: the event goes out.
            asAdmin.get().contentType("application/json").body(Map.of("active", true)).patch(hook).then().statusCode(200)
                    .body("state", equalTo("active")).body("disabled_reason", nullValue());
            await().atMost(Duration.ofSeconds(10)).until(() -> receiver.received().size() == 1);
            assertEquals(String.valueOf(event), cloudEvent(receiver.received().get(0)).getId());
            try (Connection c = ServiceDatabase.connect(); Statement s = c.createStatement();
                    java.sql.ResultSet rows = s.executeQuery("SELECT creator_id, creator_client_id FROM events.webhook_subscription "
                            + "WHERE id = " + id)) {
                rows.next();
                assertEquals(ADMIN, rows.getLong(1));
                assertEquals("test-client", rows.getString(2), "the client of the token it was made active with");
            }
            asAdmin.get().delete(hook).then().statusCode(204);
        }
    }

    @Test
    void aRotatedSecretSignsBesideThePreviousOne() {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String repository = repo();
            var made = subscribe(repository, receiver.url("/rotated")).statusCode(201).extract().jsonPath();
            String hook = "/alice/repositories/" + repository + "/webhooks/" + made.getLong("id");
            String rotated = asAlice("admin").post(hook + "/secret").then().statusCode(200)
                    .body("previous_secret_expires_at", notNullValue()).extract().jsonPath().getString("secret");
            record(repository, "after the rotation");
            await().atMost(Duration.ofSeconds(10)).until(() -> receiver.received().size() == 1);
            WebhookReceiver.Received r = receiver.received().get(0);
            assertEquals(2, r.header("webhook-signature").split(" ").length);
            WebhookReceiver.verify(r, rotated);
            WebhookReceiver.verify(r, made.getString("secret"));
        }
    }

    @Test
    void aPausedWebhookGetsNothingAndANamespacesWebhookGetsEveryRepository() {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String one = repo();
            String two = repo();
            var paused = subscribe(one, receiver.url("/paused"), "active", false).statusCode(201).body("state", equalTo("paused"))
                    .extract().jsonPath();
            long namespaceHook = post(asAlice("admin"), "/alice/webhooks", Map.of("url", receiver.url("/namespace"),
                    "events", List.of("API-Request"))).statusCode(201).extract().jsonPath().getLong("id");
            try {
                post(asAlice("write"), "/alice/repositories/" + one + "/data/events", Map.of("note", "one")).statusCode(201);
                post(asAlice("write"), "/alice/repositories/" + two + "/data/events", Map.of("note", "two")).statusCode(201);
                await().atMost(Duration.ofSeconds(10)).until(() -> receiver.received("/namespace").stream()
                        .map(r -> cloudEvent(r).getSource().toString()).filter(s -> s.endsWith(one) || s.endsWith(two))
                        .distinct().count() == 2);
                assertEquals(0, receiver.received("/paused").size());
                asAlice("admin").get("/alice/repositories/" + one + "/webhooks").then().statusCode(200)
                        .body("id", equalTo(List.of(paused.getInt("id"))));
            } finally {
                asAlice("admin").delete("/alice/webhooks/" + namespaceHook).then().statusCode(204);
            }
        }
    }
}
