package org.ziggurat.e2e;

import io.cloudevents.CloudEvent;
import io.cloudevents.jackson.JsonFormat;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.WebhookReceiver;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.e2e.Platform.as;

/**
 * Webhooks through the whole stack (the gateway, two events-service replicas behind a balancer,
 * PgBouncer) to receivers this test runs: every delivery verifies with the Standard Webhooks
 * check and parses with the CloudEvents SDK; each event reaches a receiver once across the
 * replicas; a receiver down for a minute gets every event afterwards, in order; one that fails
 * three times gets the event each time and then no more; events appended one after another arrive
 * within 250 ms of their answers; one that sleeps 30 s delays no
 * recording; targets inside the platform's network are refused.
 */
class WebhooksTest {

    /** A person, their admin token, and a repository of theirs. */
    private record Owner(Platform.Person person, String token, String repository) {
        String events() {
            return "/" + person.username() + "/repositories/" + repository + "/data/events";
        }

        String webhooks() {
            return "/" + person.username() + "/repositories/" + repository + "/webhooks";
        }
    }

    private static Owner owner(String name) {
        Platform.Person person = Platform.signUp(name);
        return new Owner(person, Platform.accessToken(person, "user", "write", "admin"), "data");
    }

    /** The webhooks a test made (the token that made each, its URL): deleted after it, so that none is retried meanwhile. */
    private final List<String[]> made = new ArrayList<>();

    @org.junit.jupiter.api.AfterEach
    void deleteTheWebhooks() {
        made.forEach(m -> as(m[0]).delete(m[1]).then().statusCode(org.hamcrest.Matchers.oneOf(204, 404)));
    }

    /** Remembers a webhook the answer describes, made with the token; the answer. */
    private Map<String, Object> made(String token, Map<String, Object> webhook) {
        made.add(new String[] {token, ((String) webhook.get("url")).replace(Platform.api(), "")});
        return webhook;
    }

    /** A webhook of the owner's repository to the URL; its id and secret. */
    private Map<String, Object> subscribe(Owner owner, String url) {
        return made(owner.token(), as(owner.token()).contentType("application/json").body(Map.of("url", url, "description", "e2e"))
                .post(owner.webhooks()).then().statusCode(201).extract().path(""));
    }

    private static long record(Owner owner, String note) {
        return ((Number) as(owner.token()).contentType("application/json").body(Map.of("kind", "FileUpload", "note", note))
                .post(owner.events()).then().statusCode(201).extract().path("id")).longValue();
    }

    private static CloudEvent cloudEvent(WebhookReceiver.Received r) {
        return new JsonFormat().deserialize(r.body());
    }

    /** The CloudEvents ids of what was received, each once, in the order first received. */
    private static List<String> distinctIds(WebhookReceiver receiver) {
        return receiver.received().stream().map(r -> cloudEvent(r).getId()).distinct().toList();
    }

    @Test
    void eachEventReachesTheReceiverOnceAcrossTheReplicasSignedAndReadable() throws Exception {
        Owner owner = owner("hooked");
        // A receiver that takes 2 s to answer: each replica has at most four deliveries under way
        // (the Stack's setting), so eight repositories' events need both replicas at once.
        try (WebhookReceiver receiver = new WebhookReceiver().answering(r -> r.path().equals("/slowly")
                ? new WebhookReceiver.Answer(200, "", Duration.ofSeconds(2), Map.of()) : WebhookReceiver.Answer.status(200))) {
            Map<String, Object> both = made(owner.token(), as(owner.token()).contentType("application/json")
                    .body(Map.of("url", receiver.url("/slowly"), "events", List.of("API-Request")))
                    .post("/" + owner.person().username() + "/webhooks").then().statusCode(201).extract().path(""));
            List<Long> spread = IntStream.range(0, 8).mapToObj(i -> ((Number) as(owner.token()).contentType("application/json")
                    .body(Map.of("note", "repository " + i)).post("/" + owner.person().username() + "/repositories/lane-" + i
                            + "/data/events").then().statusCode(201).extract().path("id")).longValue()).toList();
            await().atMost(Duration.ofSeconds(30)).until(() -> receiver.received("/slowly").size() >= spread.size());
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(6))
                    .until(() -> receiver.received("/slowly").size() == spread.size());
            assertEquals(spread.stream().map(String::valueOf).sorted().toList(), receiver.received("/slowly").stream()
                    .map(r -> cloudEvent(r).getId()).sorted().toList(), "each event once");
            String subscription = "subscription_id=" + both.get("id") + " ";
            long first = deliveredIn("events-service", subscription);
            long second = deliveredIn("events-service-2", subscription);
            assertEquals(spread.size(), first + second, "each delivery recorded once");
            assertTrue(first > 0 && second > 0, "deliveries by each replica: " + first + " and " + second);

            // A burst on one repository: every event once, in the order recorded, each signed and readable.
            Map<String, Object> hook = subscribe(owner, receiver.url("/once"));
            String secret = (String) hook.get("secret");
            List<Long> ids = IntStream.range(0, 40).mapToObj(i -> record(owner, "event " + i)).toList();
            await().atMost(Duration.ofSeconds(60)).until(() -> receiver.received("/once").size() >= ids.size());
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(6))
                    .until(() -> receiver.received("/once").size() == ids.size());
            List<WebhookReceiver.Received> once = receiver.received("/once");
            for (WebhookReceiver.Received r : once) {
                WebhookReceiver.verify(r, secret);
                CloudEvent event = cloudEvent(r);
                assertEquals("org.ziggurat.data.FileUpload", event.getType());
                assertEquals(Platform.api() + "/" + owner.person().username() + "/repositories/data", event.getSource().toString());
                assertEquals("data/events/" + event.getId(), event.getSubject());
                String data = new String(event.getData().toBytes(), StandardCharsets.UTF_8);
                assertTrue(data.contains("\"url\":\"" + Platform.api() + owner.events() + "/" + event.getId() + "\""), data);
            }
            assertEquals(ids.stream().map(String::valueOf).toList(), once.stream().map(r -> cloudEvent(r).getId()).toList(),
                    "every event once, in the order recorded");
        }
    }

    private static long deliveredIn(String instance, String subscription) throws Exception {
        try (var lines = Files.lines(Stack.get().logsDirectory().resolve(instance + ".log"))) {
            return lines.filter(l -> l.contains("event=webhook_delivered") && l.contains(subscription)).count();
        }
    }

    /**
     * Each event reaches a waiting receiver within 250 ms of its append's answer (p99 of 50), in
     * order, each once: the outbox row's commit wakes a fan-out on either replica, whose commit wakes
     * the delivery workers, none of it waiting for a poll. Each is appended once the one before was
     * received, so what is measured is an event's own way to the receiver: appended back to back,
     * the later ones also wait for the lane's earlier deliveries (one at a time, in order), which a
     * busy machine slows down as a whole (a run beside another build: p99 688 ms, each event a few
     * milliseconds later than the one before).
     */
    @Test
    void eventsAppendedOneAfterAnotherArriveWithinAQuarterSecondInOrderOnce() {
        Owner owner = owner("prompt");
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            subscribe(owner, receiver.url("/prompt"));
            // The first delivery opens what later ones reuse (the directory's answer on the creator's rights, connections).
            long first = record(owner, "warming up");
            await().atMost(Duration.ofSeconds(15)).until(() -> receiver.received("/prompt").size() == 1);
            List<Long> ids = new ArrayList<>();
            List<java.time.Instant> answered = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                ids.add(record(owner, "prompt " + i));
                answered.add(java.time.Instant.now());
                // The receiver stamps each arrival itself: how often this asks does not change the measure.
                int delivered = ids.size() + 1;
                await().atMost(Duration.ofSeconds(15)).until(() -> distinctIds(receiver).size() >= delivered);
            }
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                    .until(() -> receiver.received("/prompt").size() == ids.size() + 1);
            List<WebhookReceiver.Received> received = receiver.received("/prompt");
            List<String> expected = new ArrayList<>(List.of(String.valueOf(first)));
            ids.forEach(id -> expected.add(String.valueOf(id)));
            assertEquals(expected, received.stream().map(r -> cloudEvent(r).getId()).toList(), "in order, each once");
            List<Long> delays = new ArrayList<>();
            for (int i = 0; i < ids.size(); i++) {
                delays.add(Duration.between(answered.get(i), received.get(i + 1).at()).toMillis());
            }
            List<Long> sorted = delays.stream().sorted().toList();
            long p50 = sorted.get((int) Math.ceil(0.50 * sorted.size()) - 1);
            long p99 = sorted.get((int) Math.ceil(0.99 * sorted.size()) - 1);
            System.out.printf("webhook delivery after the append's answer: p50 %d ms, p99 %d ms (each: %s)%n", p50, p99, delays);
            assertTrue(p99 < 250, "p99 " + p99 + " ms, p50 " + p50 + " ms: " + delays);
        }
    }

    @Test
    void aReceiverDownForAMinuteGetsEveryEventAfterwardsInOrder() throws Exception {
        Owner owner = owner("outage");
        WebhookReceiver before = new WebhookReceiver();
        int port = before.port();
        Map<String, Object> hook = subscribe(owner, before.url("/back"));
        List<Long> ids = new ArrayList<>();
        ids.add(record(owner, "before the outage"));
        await().atMost(Duration.ofSeconds(15)).until(() -> before.received().size() == 1);
        // Recorded as delivered before the receiver goes: closed as soon as the request came, it
        // could cut its own answer off (a failed attempt, and the event pending again).
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> as(owner.token())
                .get(owner.webhooks() + "/" + hook.get("id") + "/deliveries").then().body("[0].state", equalTo("delivered")));
        before.close();
        // Down for a minute: an event every 6 s meanwhile, each tried and refused (connection refused).
        long downAt = System.nanoTime();
        for (int k = 1; k <= 10; k++) {
            ids.add(record(owner, "during the outage " + k));
            Duration due = Duration.ofSeconds(6L * k);
            await().atMost(Duration.ofSeconds(8)).until(() -> System.nanoTime() - downAt >= due.toNanos());
        }
        as(owner.token()).get(owner.webhooks() + "/" + hook.get("id") + "/deliveries?state=pending").then().statusCode(200)
                .body("size()", equalTo(ids.size() - 1));
        try (WebhookReceiver after = new WebhookReceiver(port)) {
            await().atMost(Duration.ofSeconds(60)).until(() -> distinctIds(after).size() == ids.size() - 1);
            assertEquals(ids.subList(1, ids.size()).stream().map(String::valueOf).toList(), distinctIds(after),
                    "every event recorded during the outage, in order");
            after.received().forEach(r -> WebhookReceiver.verify(r, (String) hook.get("secret")));
        }
    }

    @Test
    void aReceiverThatFailsThreeTimesGetsTheEventEachTimeThenOnceAccepted() {
        Owner owner = owner("flaky");
        AtomicInteger calls = new AtomicInteger();
        try (WebhookReceiver receiver = new WebhookReceiver().answering(r -> calls.incrementAndGet() <= 3
                ? WebhookReceiver.Answer.status(500) : WebhookReceiver.Answer.status(200))) {
            Map<String, Object> hook = subscribe(owner, receiver.url("/flaky"));
            long id = record(owner, "retried");
            await().atMost(Duration.ofSeconds(30)).until(() -> receiver.received().size() >= 4);
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(6)).until(() -> receiver.received().size() == 4);
            assertEquals(1, receiver.received().stream().map(r -> r.header("webhook-id")).distinct().count(),
                    "the same webhook-id each time");
            receiver.received().forEach(r -> {
                WebhookReceiver.verify(r, (String) hook.get("secret"));
                assertEquals(String.valueOf(id), cloudEvent(r).getId());
            });
            as(owner.token()).get(owner.webhooks() + "/" + hook.get("id") + "/deliveries").then().statusCode(200)
                    .body("[0].state", equalTo("delivered")).body("[0].attempts", equalTo(4));
        }
    }

    @Test
    void aReceiverThatSleepsThirtySecondsDelaysNoRecordingNorAnotherReceiver() {
        Owner slowOwner = owner("slowhook");
        Owner quickOwner = owner("quickhook");
        try (WebhookReceiver slow = new WebhookReceiver().answering(r -> new WebhookReceiver.Answer(200, "", Duration.ofSeconds(30),
                Map.of()));
                WebhookReceiver quick = new WebhookReceiver()) {
            subscribe(slowOwner, slow.url("/slow"));
            subscribe(quickOwner, quick.url("/quick"));
            record(slowOwner, "to the sleeping receiver");
            await().atMost(Duration.ofSeconds(15)).until(() -> slow.received().size() == 1);
            // The receiver sleeps on its delivery: recording goes on at its pace (each far below the 30 s).
            for (int i = 0; i < 20; i++) {
                long started = System.nanoTime();
                record(slowOwner, "while it sleeps " + i);
                long took = Duration.ofNanos(System.nanoTime() - started).toMillis();
                assertTrue(took < 5_000, "recording an event took " + took + " ms while a receiver sleeps");
            }
            // Another receiver is served meanwhile.
            long quickId = record(quickOwner, "to the quick receiver");
            await().atMost(Duration.ofSeconds(10)).until(() -> quick.received().size() == 1);
            assertEquals(String.valueOf(quickId), cloudEvent(quick.received().get(0)).getId());
            assertEquals(1, slow.received().size(), "the sleeping receiver's lane waits for its head");
        }
    }

    @Test
    void theAuditStreamTellsTheOperatorsOfApplicationsMembershipsAndWebhooks() {
        String operator = Platform.accessToken(Stack.get().operator(), "user", "admin");
        Owner owner = owner("audited");
        Platform.Person joiner = Platform.signUp("joiner");
        try (WebhookReceiver siem = new WebhookReceiver()) {
            Map<String, Object> hook = made(operator, as(operator).contentType("application/json")
                    .body(Map.of("url", siem.url("/siem"), "events", List.of("application", "membership", "webhook")))
                    .post("/audit/webhooks").then().statusCode(201).extract().path(""));
            // A person may not read the stream, nor subscribe to it.
            as(owner.token()).get("/audit/events").then().statusCode(403);
            as(owner.token()).contentType("application/json").body(Map.of("url", siem.url("/mine"))).post("/audit/webhooks")
                    .then().statusCode(403);
            // Nor may an application the operator authorized with the admin scope: the operator's
            // token (above) is their own, issued without a client; this one is the application's.
            Map<String, Object> tool = as(operator).contentType("application/json").body(Map.of("name", "Operator's tool",
                            "redirect_uris", List.of("http://127.0.0.1:9/callback"), "scopes", "user admin", "password_grant", true))
                    .post("/applications").then().statusCode(201).extract().jsonPath().getMap("");
            String throughTool = Platform.offContract().auth().preemptive()
                    .basic((String) tool.get("client_id"), (String) tool.get("client_secret"))
                    .formParams(Map.of("grant_type", "password", "username", Stack.get().operator().username(),
                            "password", Stack.get().operator().password(), "scope", "user admin"))
                    .post("/oauth/token").then().statusCode(200).extract().path("access_token");
            as(throughTool).get("/audit/events").then().statusCode(403).body("detail", containsString("own token"));
            as(throughTool).contentType("application/json").body(Map.of("url", siem.url("/tool"))).post("/audit/webhooks")
                    .then().statusCode(403);
            as(throughTool).get("/audit/webhooks/" + hook.get("id")).then().statusCode(403);

            int app = as(owner.token()).contentType("application/json").body(Map.of("name", "Audited tool",
                    "redirect_uris", List.of("https://tool.example.org/cb"), "scopes", "user", "confidential", true))
                    .post("/applications").then().statusCode(201).extract().path("id");
            int org = as(owner.token()).contentType("application/json").body(Map.of("name", "audited-" + owner.person().id()))
                    .post("/organizations").then().statusCode(201).extract().path("id");
            as(owner.token()).contentType("application/json").body(Map.of("role", "member"))
                    .put("/organizations/" + org + "/memberships/" + joiner.id()).then().statusCode(201);
            int webhook = ((Number) subscribe(owner, siem.url("/data")).get("id")).intValue();

            Map<String, String> expected = Map.of(
                    "org.ziggurat.audit.application.created", "application/" + app,
                    "org.ziggurat.audit.membership.added", "organization/" + org + "/member/" + joiner.id(),
                    "org.ziggurat.audit.webhook.created", "webhook/" + webhook);
            await().atMost(Duration.ofSeconds(30)).until(() -> siem.received("/siem").stream().map(WebhooksTest::cloudEvent)
                    .filter(e -> e.getSubject().equals(expected.get(e.getType()))).count() == expected.size());
            for (WebhookReceiver.Received r : siem.received("/siem")) {
                WebhookReceiver.verify(r, (String) hook.get("secret"));
            }
            Map<String, String> sources = siem.received("/siem").stream().map(WebhooksTest::cloudEvent)
                    .filter(e -> e.getSubject().equals(expected.get(e.getType())))
                    .collect(java.util.stream.Collectors.toMap(CloudEvent::getType, e -> e.getSource().toString()));
            assertEquals("urn:ziggurat:auth-service", sources.get("org.ziggurat.audit.application.created"));
            assertEquals("urn:ziggurat:directory-service", sources.get("org.ziggurat.audit.membership.added"));
            assertEquals("urn:ziggurat:events-service", sources.get("org.ziggurat.audit.webhook.created"));
            CloudEvent added = siem.received("/siem").stream().map(WebhooksTest::cloudEvent)
                    .filter(e -> e.getType().equals("org.ziggurat.audit.membership.added")
                            && e.getSubject().equals(expected.get(e.getType()))).findFirst().orElseThrow();
            String data = new String(added.getData().toBytes(), StandardCharsets.UTF_8);
            assertTrue(data.contains("\"actor_id\":" + owner.person().id()), "who added the member: " + data);
            // The operators read the same in the stream.
            as(operator).queryParam("category", "membership").queryParam("limit", 1000).get("/audit/events").then()
                    .statusCode(200).body("subject", hasItem(expected.get("org.ziggurat.audit.membership.added")));
        }
    }

    @Test
    void targetsInsideThePlatformsNetworkAreRefusedAndRedirectsNotFollowed() {
        Owner owner = owner("ssrf");
        for (String url : List.of("https://169.254.169.254/latest/meta-data/", "http://10.0.0.1/", "https://[::1]/",
                "http://127.0.0.2/", "https://192.168.0.1/", "https://[::ffff:172.16.0.1]/", "http://localhost6/",
                "file:///etc/passwd")) {
            as(owner.token()).contentType("application/json").body(Map.of("url", url)).post(owner.webhooks()).then()
                    .statusCode(422).body("errors[0].field", equalTo("url"));
        }
        try (WebhookReceiver inside = new WebhookReceiver();
                WebhookReceiver redirecting = new WebhookReceiver().answering(r -> new WebhookReceiver.Answer(302, "",
                        Duration.ZERO, Map.of("Location", inside.url("/admin"))))) {
            Map<String, Object> hook = subscribe(owner, redirecting.url("/moved"));
            record(owner, "redirected");
            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> as(owner.token())
                    .get(owner.webhooks() + "/" + hook.get("id") + "/deliveries").then()
                    .body("[0].attempt_log[0].status", equalTo(302)));
            assertEquals(0, inside.received().size(), "the redirect was not followed");
        }
        as(owner.token()).contentType("application/json").body(Map.of("url", "gopher://example.org/")).post(owner.webhooks())
                .then().statusCode(422).body("errors[0].message", containsString("https"));
    }
}
