package org.ziggurat.events.webhooks;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.rest.queue.QueueRepository;
import org.ziggurat.platform.rest.queue.Queues;
import org.ziggurat.platform.testing.ServiceDatabase;
import org.ziggurat.platform.testing.WebhookReceiver;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.events.webhooks.WebhooksTest.asAlice;
import static org.ziggurat.events.webhooks.WebhooksTest.cloudEvent;
import static org.ziggurat.events.webhooks.WebhooksTest.post;
import static org.ziggurat.events.webhooks.WebhooksTest.record;
import static org.ziggurat.events.webhooks.WebhooksTest.repo;
import static org.ziggurat.events.webhooks.WebhooksTest.subscribe;

/**
 * The webhook outbox (V9): recording an event writes one row, whatever the number of
 * subscriptions; its fan-out into deliveries, after the commit, holds to the subscriptions as they
 * were at the event, keeps each lane's order whichever replica fans out, and queues each delivery
 * once, also when a replica died holding the fan-out. Where a test needs the outbox to wait, this
 * replica's fan-out worker is stopped meanwhile, and claims are taken as another replica would.
 */
@QuarkusTest
class WebhookFanoutTest {

    @Inject
    WebhookFanout fanout;

    @Inject
    WebhookFanoutRepository outbox;

    @Inject
    Queues queues;

    private interface Step {
        void run() throws Exception;
    }

    /** {@code step} while this replica fans nothing out; its worker started again after. */
    private void withoutFanout(Step step) throws Exception {
        fanout.worker().stop();
        try {
            step.run();
        } finally {
            fanout.worker().start();
        }
    }

    private static long count(String sql) throws SQLException {
        try (Connection c = ServiceDatabase.connect(); Statement s = c.createStatement(); ResultSet rows = s.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static void execute(String sql) throws SQLException {
        try (Connection c = ServiceDatabase.connect(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static long outboxRows(long event) throws SQLException {
        return count("SELECT count(*) FROM events.webhook_fanout WHERE id = " + event);
    }

    private static long deliveries(long event) throws SQLException {
        return count("SELECT count(*) FROM events.webhook_delivery WHERE event_id = " + event);
    }

    private static long repositoryId(String repository) throws SQLException {
        return count("SELECT id FROM events.repository WHERE namespace = 'alice' AND name = '" + repository + "'");
    }

    /** This repository's rows among those claimed; every claimed row fanned out (others' too: none waits for its lease). */
    private List<QueueRepository.Claimed> ofRepository(List<QueueRepository.Claimed> claimed, long repositoryId) {
        return claimed.stream().filter(c -> c.row().getLong("repository_id") == repositoryId).toList();
    }

    @Test
    void anEventIsOneOutboxRowWhateverTheNumberOfSubscriptions() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String repository = repo();
            List<Long> events = new ArrayList<>();
            long[] model = new long[1];
            withoutFanout(() -> {
                // None takes it: no row (the statement only looks an empty index up).
                events.add(record(repository, "no subscription"));
                assertEquals(0, outboxRows(events.get(0)));
                model[0] = subscribe(repository, receiver.url("/many")).statusCode(201).extract().jsonPath().getLong("id");
                events.add(record(repository, "one subscription"));
                assertEquals(1, outboxRows(events.get(1)));
                // 99 more (past the API's limit per namespace, so copied in the database; each gets its span by the trigger).
                execute("INSERT INTO events.webhook_subscription (namespace, repository, target_url, kinds, state, secret_sealed, "
                        + "api_base, creator_id, creator_client_id) SELECT namespace, repository, target_url, kinds, state, "
                        + "secret_sealed, api_base, creator_id, creator_client_id FROM events.webhook_subscription, "
                        + "generate_series(1, 99) WHERE id = " + model[0]);
                events.add(record(repository, "a hundred subscriptions"));
                assertEquals(1, outboxRows(events.get(2)), "one row for a hundred subscriptions");
                assertEquals(0, deliveries(events.get(2)), "no delivery in the event's statement");
            });
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> receiver.received("/many").size() >= 101);
                assertEquals(0, deliveries(events.get(0)));
                assertEquals(1, deliveries(events.get(1)));
                assertEquals(100, deliveries(events.get(2)));
                assertEquals(0, outboxRows(events.get(1)) + outboxRows(events.get(2)), "fanned out, the rows are gone");
            } finally {
                execute("DELETE FROM events.webhook_subscription WHERE namespace = 'alice' AND repository = '" + repository + "'");
            }
        }
    }

    @Test
    void fanningOutAnEventAgainQueuesNothingTwice() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String repository = repo();
            subscribe(repository, receiver.url("/one")).statusCode(201);
            subscribe(repository, receiver.url("/two")).statusCode(201);
            long event = record(repository, "fanned out twice");
            await().atMost(Duration.ofSeconds(15)).until(() -> receiver.received().size() == 2);
            // Its row back, as a fan-out whose commit was not known to have happened would leave it.
            execute("INSERT INTO events.webhook_fanout (id, repository_id) VALUES (" + event + ", " + repositoryId(repository) + ")");
            await().atMost(Duration.ofSeconds(15)).until(() -> outboxRows(event) == 0);
            assertEquals(2, deliveries(event), "each subscription's delivery once");
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> receiver.received().size() == 2);
        }
    }

    /**
     * Two replicas: while one holds a repository's oldest event for its fan-out, the other is
     * handed none of that repository's later events (they would get deliveries ahead of it); the
     * holder fans out the ones behind in the same statement, in event order.
     */
    @Test
    void aRepositorysEventsAreFannedOutInOrderWhateverReplicaClaims() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String repository = repo();
            long namespaceHook = post(asAlice("admin"), "/alice/webhooks", Map.of("url", receiver.url("/namespace"),
                    "events", List.of("FileUpload"))).statusCode(201).extract().jsonPath().getLong("id");
            try {
                subscribe(repository, receiver.url("/repository")).statusCode(201);
                List<Long> events = new ArrayList<>();
                QueueRepository one = queues.repository(WebhookFanoutRepository.FANOUT);
                QueueRepository other = queues.repository(WebhookFanoutRepository.FANOUT);
                withoutFanout(() -> {
                    IntStream.range(0, 6).forEach(i -> events.add(record(repository, "event " + i)));
                    long lane = repositoryId(repository);
                    List<QueueRepository.Claimed> first = one.claim(100, Duration.ofSeconds(30)).await().indefinitely();
                    List<QueueRepository.Claimed> second = other.claim(100, Duration.ofSeconds(30)).await().indefinitely();
                    assertEquals(List.of(events.get(0)), ofRepository(first, lane).stream().map(QueueRepository.Claimed::id).toList(),
                            "the lane's head only");
                    assertEquals(List.of(), ofRepository(second, lane), "nothing of a lane whose head another replica holds");
                    for (QueueRepository.Claimed claimed : second) {
                        outbox.fanOut(claimed, 19).await().indefinitely();
                    }
                    for (QueueRepository.Claimed claimed : first) {
                        WebhookFanoutRepository.Fanned fanned = outbox.fanOut(claimed, 19).await().indefinitely();
                        if (claimed.row().getLong("repository_id") == lane) {
                            assertEquals(events.size(), fanned.events(), "the head and the events behind it");
                        }
                    }
                });
                for (String path : List.of("/repository", "/namespace")) {
                    await().atMost(Duration.ofSeconds(15)).until(() -> receiver.received(path).size() >= events.size());
                    assertEquals(events.stream().map(String::valueOf).toList(), receiver.received(path).stream()
                            .map(r -> cloudEvent(r).getId()).toList(), "in event order, each once, to " + path);
                }
                assertEquals(0, count("SELECT count(*) FROM (SELECT event_id, lag(event_id) OVER (PARTITION BY subscription_id "
                        + "ORDER BY id) AS before FROM events.webhook_delivery WHERE event_id IN (" + events.stream()
                        .map(String::valueOf).collect(java.util.stream.Collectors.joining(", ")) + ")) d WHERE before > event_id"),
                        "each subscription's deliveries numbered in event order");
            } finally {
                asAlice("admin").delete("/alice/webhooks/" + namespaceHook).then().statusCode(204);
            }
        }
    }

    /**
     * A backlog goes out a full batch at a time, each followed by a pause as long as it took (the
     * repository's next row is due only then), so that the fan-out leaves the appends that make the
     * backlog most of the database's time; the rest follows after the pause, without a poll.
     */
    @Test
    void aBacklogIsFannedOutInBatchesWithPausesBetween() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String repository = repo();
            subscribe(repository, receiver.url("/backlog")).statusCode(201);
            int events = WebhookFanout.EVENTS_PER_STATEMENT + 3;
            List<Long> ids = new ArrayList<>();
            withoutFanout(() -> {
                IntStream.range(0, events).forEach(i -> ids.add(record(repository, "backlog " + i)));
                long lane = repositoryId(repository);
                long before = count("SELECT (extract(epoch FROM now()) * 1000000)::bigint");
                for (QueueRepository.Claimed claimed : queues.repository(WebhookFanoutRepository.FANOUT)
                        .claim(100, Duration.ofSeconds(30)).await().indefinitely()) {
                    WebhookFanoutRepository.Fanned fanned = outbox.fanOut(claimed, WebhookFanout.EVENTS_PER_STATEMENT - 1)
                            .await().indefinitely();
                    if (claimed.row().getLong("repository_id") == lane) {
                        assertEquals(WebhookFanout.EVENTS_PER_STATEMENT, fanned.events());
                    }
                }
                long next = ids.get(WebhookFanout.EVENTS_PER_STATEMENT);
                assertEquals(1, count("SELECT count(*) FROM events.webhook_fanout WHERE id = " + next
                        + " AND (extract(epoch FROM next_attempt_at) * 1000000)::bigint > " + before), "the next row paused");
            });
            await().atMost(Duration.ofSeconds(30)).until(() -> receiver.received("/backlog").size() >= events);
            assertEquals(ids.stream().map(String::valueOf).toList(), receiver.received("/backlog").stream()
                    .map(r -> cloudEvent(r).getId()).toList(), "in event order, each once");
        }
    }

    /**
     * A replica claims an event's fan-out and dies before it commits: another takes it once the
     * lease has run out, and the event is delivered once; the dead claim, were it to run late,
     * does nothing.
     */
    @Test
    void anEventWhoseFanoutsReplicaDiedIsDeliveredOnce() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String repository = repo();
            subscribe(repository, receiver.url("/after-a-crash")).statusCode(201);
            long[] event = new long[1];
            List<QueueRepository.Claimed> died = new ArrayList<>();
            withoutFanout(() -> {
                event[0] = record(repository, "its fan-out's replica dies");
                // The dying replica's claim, with a short lease; other repositories' rows it took are fanned out.
                for (QueueRepository.Claimed claimed : queues.repository(WebhookFanoutRepository.FANOUT)
                        .claim(100, Duration.ofSeconds(2)).await().indefinitely()) {
                    if (claimed.id() == event[0]) {
                        died.add(claimed);
                    } else {
                        outbox.fanOut(claimed, 19).await().indefinitely();
                    }
                }
            });
            assertEquals(1, died.size(), "the event's row claimed");
            // While the dead claim's lease holds, its event has no delivery (the row is neither fanned out nor lost).
            assertEquals(0, count("SELECT count(*) FROM events.webhook_delivery WHERE event_id = " + event[0] + " AND EXISTS "
                    + "(SELECT 1 FROM events.webhook_fanout WHERE id = " + event[0] + " AND next_attempt_at > now())"));
            await().atMost(Duration.ofSeconds(20)).until(() -> receiver.received().size() == 1);
            assertEquals(String.valueOf(event[0]), cloudEvent(receiver.received().get(0)).getId());
            assertEquals(0, outbox.fanOut(died.get(0), 19).await().indefinitely().events(), "the dead claim fans out nothing");
            assertEquals(1, deliveries(event[0]));
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> receiver.received().size() == 1);
        }
    }

    /**
     * The fan-out runs after the event, but sends it to the subscriptions as they were then: not
     * to one made since, nor to one paused then and active since, nor with kinds it took only
     * since; and to one active then, paused since, when it is active again (as before the outbox).
     */
    @Test
    void theEventsSubscriptionsAreThoseOfItsTime() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String repository = repo();
            String hooks = "/alice/repositories/" + repository + "/webhooks/";
            subscribe(repository, receiver.url("/before")).statusCode(201);
            long pausedThen = subscribe(repository, receiver.url("/paused-then"), "active", false).statusCode(201).extract()
                    .jsonPath().getLong("id");
            long otherKinds = subscribe(repository, receiver.url("/other-kinds"), "events", List.of("Fork")).statusCode(201)
                    .extract().jsonPath().getLong("id");
            long pausedSince = subscribe(repository, receiver.url("/paused-since")).statusCode(201).extract().jsonPath().getLong("id");
            long[] event = new long[1];
            withoutFanout(() -> {
                event[0] = record(repository, "before the changes");
                subscribe(repository, receiver.url("/made-after")).statusCode(201);
                asAlice("admin").contentType("application/json").body(Map.of("active", true)).patch(hooks + pausedThen)
                        .then().statusCode(200);
                asAlice("admin").contentType("application/json").body(Map.of("events", List.of("Fork", "FileUpload")))
                        .patch(hooks + otherKinds).then().statusCode(200);
                asAlice("admin").contentType("application/json").body(Map.of("active", false)).patch(hooks + pausedSince)
                        .then().statusCode(200);
            });
            await().atMost(Duration.ofSeconds(15)).until(() -> receiver.received("/before").size() == 1);
            assertEquals(2, deliveries(event[0]), "to the subscriptions that took it then: " + receiver.received());
            asAlice("admin").contentType("application/json").body(Map.of("active", true)).patch(hooks + pausedSince)
                    .then().statusCode(200);
            await().atMost(Duration.ofSeconds(15)).until(() -> receiver.received("/paused-since").size() == 1);
            // A later event goes to every one of them.
            long later = record(repository, "after the changes");
            await().atMost(Duration.ofSeconds(15)).until(() -> receiver.received().size() == 2 + 5);
            for (String path : List.of("/made-after", "/paused-then", "/other-kinds")) {
                assertEquals(List.of(String.valueOf(later)), receiver.received(path).stream().map(r -> cloudEvent(r).getId()).toList(),
                        path);
            }
            assertTrue(receiver.received("/before").size() == 2 && receiver.received("/paused-since").size() == 2);
        }
    }

    /**
     * A lane whose deliveries do not go out (its subscription disabled: its events wait for it) has
     * only a few queued; the rest of its events wait in the repository's log, one row each whatever
     * the number of subscriptions, while another lane of the repository gets every one. As the
     * waiting lane's deliveries go out, each is followed by the next from the log: every event once,
     * in event order, and the log emptied once every lane has passed it.
     */
    @Test
    void aLaneWhoseDeliveriesWaitHasOnlyAFewQueuedAndTheRestFollow() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String repository = repo();
            long held = subscribe(repository, receiver.url("/held")).statusCode(201).extract().jsonPath().getLong("id");
            subscribe(repository, receiver.url("/free")).statusCode(201);
            execute("UPDATE events.webhook_subscription SET state = 'disabled', disabled_cause = 'failing', "
                    + "disabled_reason = 'held by the test' WHERE id = " + held);
            int events = WebhookFanoutRepository.PENDING_PER_LANE * 3 + 2;
            List<Long> ids = new ArrayList<>();
            IntStream.range(0, events).forEach(i -> ids.add(record(repository, "held " + i)));
            List<String> inOrder = ids.stream().map(String::valueOf).toList();
            await().atMost(Duration.ofSeconds(30)).until(() -> receiver.received("/free").size() >= events);
            assertEquals(inOrder, receiver.received("/free").stream().map(r -> cloudEvent(r).getId()).toList());
            long lane = repositoryId(repository);
            await().atMost(Duration.ofSeconds(15)).until(() -> count("SELECT count(*) FROM events.webhook_event_log "
                    + "WHERE repository_id = " + lane) == events - WebhookFanoutRepository.PENDING_PER_LANE);
            assertEquals(WebhookFanoutRepository.PENDING_PER_LANE, count("SELECT count(*) FROM events.webhook_delivery "
                    + "WHERE subscription_id = " + held), "the waiting lane's first events queued, no more");
            execute("UPDATE events.webhook_subscription SET state = 'active', disabled_cause = NULL, disabled_reason = NULL "
                    + "WHERE id = " + held);
            await().atMost(Duration.ofSeconds(60)).until(() -> receiver.received("/held").size() >= events);
            assertEquals(inOrder, receiver.received("/held").stream().map(r -> cloudEvent(r).getId()).toList(),
                    "each once, in event order");
            assertEquals(events, count("SELECT count(*) FROM events.webhook_delivery WHERE subscription_id = " + held));
            await().atMost(Duration.ofSeconds(15)).until(() -> count("SELECT count(*) FROM events.webhook_event_log "
                    + "WHERE repository_id = " + lane) == 0);
        }
    }

    /**
     * A webhook made active again with nothing pending (its last delivery given up) gets the events
     * that waited for it in the log: no delivery of it is left to fill its lane, its activation does.
     */
    @Test
    void aWebhookMadeActiveAgainGetsWhatWaitedInTheLog() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String repository = repo();
            long held = subscribe(repository, receiver.url("/again")).statusCode(201).extract().jsonPath().getLong("id");
            execute("UPDATE events.webhook_subscription SET state = 'disabled', disabled_cause = 'failing', "
                    + "disabled_reason = 'held by the test' WHERE id = " + held);
            int events = WebhookFanoutRepository.PENDING_PER_LANE + 2;
            List<Long> ids = new ArrayList<>();
            IntStream.range(0, events).forEach(i -> ids.add(record(repository, "waits " + i)));
            await().atMost(Duration.ofSeconds(15)).until(() -> count("SELECT count(*) FROM events.webhook_delivery "
                    + "WHERE subscription_id = " + held) == WebhookFanoutRepository.PENDING_PER_LANE);
            // Those queued, given up (as after the retry period): nothing of the lane pending.
            execute("UPDATE events.webhook_delivery SET state = 'failed', finished_at = now() WHERE subscription_id = " + held);
            execute("UPDATE events.webhook_subscription SET state = 'active', disabled_cause = NULL, disabled_reason = NULL "
                    + "WHERE id = " + held);
            await().atMost(Duration.ofSeconds(30)).until(() -> receiver.received("/again").size() >= 2);
            assertEquals(ids.subList(WebhookFanoutRepository.PENDING_PER_LANE, events).stream().map(String::valueOf).toList(),
                    receiver.received("/again").stream().map(r -> cloudEvent(r).getId()).toList(), "the events that waited, in order");
        }
    }
}
