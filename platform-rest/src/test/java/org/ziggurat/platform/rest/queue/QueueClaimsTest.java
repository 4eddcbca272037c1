package org.ziggurat.platform.rest.queue;

import io.smallrye.mutiny.Uni;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.time.Backoff;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Claims as replicas make them, through PgBouncer in transaction mode: two replicas claiming at once
 * never take one item; an item held by a lease is nobody else's until the lease runs out, then
 * another replica's, and the first holder's record then matches nothing; a failure waits a
 * doubling time with jitter; a purge removes only what finished long enough ago. Plain JUnit.
 */
class QueueClaimsTest extends QueueTests {

    @Test
    void twoReplicasClaimingAtOnceNeverTakeOneItem() throws Exception {
        String run = UUID.randomUUID().toString();
        List<Long> ids = db.enqueue(run, null, IntStream.range(0, 300).mapToObj(i -> "job " + i).toList());
        QueueTable table = QueueTestDatabase.jobs(run).build();
        List<QueueRepository> replicas = List.of(db.replica().queues().repository(table), db.replica().queues().repository(table));
        Map<Long, AtomicInteger> claims = new ConcurrentHashMap<>();
        ExecutorService claimers = Executors.newFixedThreadPool(6);
        try {
            // Three claimers on each replica, each claiming a few at a time and finishing them, until none is left.
            List<Future<?>> running = IntStream.range(0, 6).<Future<?>>mapToObj(i -> claimers.submit(() -> {
                QueueRepository queue = replicas.get(i % 2);
                List<QueueRepository.Claimed> claimed;
                do {
                    claimed = queue.claim(7, Duration.ofMinutes(5)).await().atMost(WAIT);
                    for (QueueRepository.Claimed item : claimed) {
                        claims.computeIfAbsent(item.id(), id -> new AtomicInteger()).incrementAndGet();
                        assertTrue(queue.done(item).await().atMost(WAIT), "the claim still held " + item.id());
                    }
                } while (!claimed.isEmpty());
            })).toList();
            for (Future<?> claimer : running) {
                claimer.get();
            }
        } finally {
            claimers.shutdownNow();
        }
        assertEquals(ids.size(), claims.size(), "every item was claimed");
        assertTrue(claims.values().stream().allMatch(n -> n.get() == 1), "no item was claimed twice: " + claims);
        assertEquals(0, db.count("SELECT count(*) FROM job WHERE run = '" + run + "' AND done_at IS NULL"));
    }

    @Test
    void anItemIsAnotherReplicasOnlyOnceItsLeaseRanOut() throws Exception {
        String run = UUID.randomUUID().toString();
        QueueTable table = QueueTestDatabase.jobs(run).build();
        QueueRepository first = db.replica().queues().repository(table);
        QueueRepository second = db.replica().queues().repository(table);
        long held = db.enqueue(run, null, List.of("held")).get(0);
        QueueRepository.Claimed holding = first.claim(1, Duration.ofHours(1)).await().atMost(WAIT).get(0);
        assertEquals(held, holding.id());
        assertEquals(List.of(), second.claim(10, Duration.ofMinutes(1)).await().atMost(WAIT), "held by the first replica's lease");

        // The first replica claims another with a short lease, and stops (as a replica that died would).
        long dropped = db.enqueue(run, null, List.of("dropped")).get(0);
        QueueRepository.Claimed stale = first.claim(1, Duration.ofMillis(200)).await().atMost(WAIT).get(0);
        assertEquals(dropped, stale.id());
        QueueRepository.Claimed[] taken = new QueueRepository.Claimed[1];
        await().atMost(WAIT).until(() -> {
            List<QueueRepository.Claimed> claimed = second.claim(10, Duration.ofMinutes(1)).await().atMost(WAIT);
            claimed.stream().filter(c -> c.id() == dropped).findFirst().ifPresent(c -> taken[0] = c);
            return taken[0] != null;
        });
        assertEquals(stale.attempts() + 1, taken[0].attempts(), "claimed again");
        assertFalse(first.done(stale).await().atMost(WAIT), "the first holder's record matches nothing now");
        assertFalse(first.extend(stale, Duration.ofMinutes(1)).await().atMost(WAIT), "nor does its heartbeat");
        assertTrue(second.done(taken[0]).await().atMost(WAIT));
        assertTrue(first.done(holding).await().atMost(WAIT), "the long lease still held");
    }

    /** A worker whose handling outlives its lease: another replica's worker takes the item over and finishes it. */
    @Test
    void aWorkerThatStallsLeavesItsItemToAnother() throws Exception {
        String run = UUID.randomUUID().toString();
        QueueTable table = QueueTestDatabase.jobs(run).build();
        QueueTestDatabase.Replica stalling = db.replica();
        Uni<QueueWorker.Outcome> never = Uni.createFrom().nothing();
        QueueWorker stalled = stalling.queues().worker(table, QueueTestDatabase.settings(Duration.ofHours(1),
                Duration.ofMillis(300), 5, 5), item -> never);
        QueueWorker other = db.replica().queues().worker(table, QueueTestDatabase.settings(Duration.ofHours(1),
                Duration.ofMinutes(1), 5, 5), item -> Uni.createFrom().item(QueueWorker.Outcome.done()));
        db.enqueue(run, null, List.of("stalls"));
        stalled.round().subscribe().with(n -> { });
        await().atMost(WAIT).until(() -> stalling.metrics().counter("ziggurat.queue.claimed", "queue", QueueTestDatabase.QUEUE)
                .count() == 1);
        await().atMost(WAIT).until(() -> other.round().await().atMost(WAIT) == 1);
        assertEquals(0, db.count("SELECT count(*) FROM job WHERE run = '" + run + "' AND done_at IS NULL"));
    }

    @Test
    void aFailureWaitsADoublingTimeWithJitter() throws Exception {
        Duration first = Duration.ofSeconds(10);
        Duration longest = Duration.ofHours(1);
        for (int i = 0; i < 200; i++) {
            long one = Backoff.jittered(1, first, longest).toMillis();
            assertTrue(one >= 5_000 && one <= 10_000, one + " ms");
            long three = Backoff.jittered(3, first, longest).toMillis();
            assertTrue(three >= 20_000 && three <= 40_000, three + " ms");
            long many = Backoff.jittered(40, first, longest).toMillis();
            assertTrue(many >= 1_800_000 && many <= 3_600_000, many + " ms");
        }
        assertTrue(IntStream.range(0, 50).mapToObj(i -> Backoff.jittered(5, first, longest)).distinct().count() > 10,
                "the waits differ");

        // As stored: each failure puts the item's due time that far from the failure.
        String run = UUID.randomUUID().toString();
        long id = db.enqueue(run, null, List.of("fails")).get(0);
        QueueWorker failing = db.replica().queues().worker(QueueTestDatabase.jobs(run).build(), new QueueSettings(Duration.ofHours(1),
                Duration.ofMinutes(1), 1, 1, first, longest, java.util.Optional.empty()),
                item -> Uni.createFrom().failure(new IllegalStateException("receiver away")));
        for (int attempt = 1; attempt <= 3; attempt++) {
            double before = db.count("SELECT (extract(epoch FROM now()) * 1000)::bigint");
            assertEquals(0, failing.round().await().atMost(WAIT));
            double after = db.count("SELECT (extract(epoch FROM now()) * 1000)::bigint");
            try (Connection c = db.admin(); Statement s = c.createStatement(); ResultSet row = s.executeQuery(
                    "SELECT (extract(epoch FROM next_attempt_at) * 1000)::bigint, attempts, last_error FROM job WHERE id = " + id)) {
                row.next();
                long full = Backoff.doubling(attempt, first, longest).toMillis();
                assertTrue(row.getLong(1) >= before + full / 2 && row.getLong(1) <= after + full,
                        "attempt " + attempt + ": due " + (row.getLong(1) - before) + " ms after, of " + full);
                assertEquals(attempt, row.getInt(2));
                assertEquals("receiver away", row.getString(3));
                s.execute("UPDATE job SET next_attempt_at = now() WHERE id = " + id); // its wait passed
            }
        }
    }

    @Test
    void aPurgeRemovesOnlyWhatFinishedLongEnoughAgo() throws Exception {
        String run = UUID.randomUUID().toString();
        List<Long> ids = db.enqueue(run, null, List.of("old", "recent", "owed"));
        try (Connection c = db.admin(); Statement s = c.createStatement()) {
            s.execute("UPDATE job SET done_at = now() - interval '2 days' WHERE id = " + ids.get(0));
            s.execute("UPDATE job SET done_at = now() - interval '2 hours' WHERE id = " + ids.get(1));
        }
        QueueWorker worker = db.replica().queues().worker(QueueTestDatabase.jobs(run).build(),
                QueueTestDatabase.settings(Duration.ofHours(1), Duration.ofMinutes(1), 1, 1), item -> Uni.createFrom().nothing());
        assertEquals(1, worker.purge().await().atMost(WAIT));
        assertEquals(2, db.count("SELECT count(*) FROM job WHERE run = '" + run + "' AND id <> " + ids.get(0)));
        assertEquals(0, worker.purge().await().atMost(WAIT));
    }
}
