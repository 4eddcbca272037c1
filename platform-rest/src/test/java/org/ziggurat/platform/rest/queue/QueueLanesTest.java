package org.ziggurat.platform.rest.queue;

import io.smallrye.mutiny.Uni;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ordered lanes and wake-ups, with two replicas working at once through PgBouncer: a lane's items
 * are handled one after another in order, a failed one tried again before any later one of its
 * lane while other lanes go on; numbers given as rows become visible put a row that commits late
 * after those handled before it; an enqueue wakes the workers without waiting for a poll.
 */
class QueueLanesTest extends QueueTests {

    @Test
    void aLanesItemsAreHandledInOrderAFailedOneBeforeEveryLaterOne() throws Exception {
        String run = UUID.randomUUID().toString();
        List<Long> a = db.enqueue(run, "a", List.of("a0", "a1", "a2", "a3", "a4", "a5"));
        List<Long> b = db.enqueue(run, "b", List.of("b0", "b1", "b2", "b3"));
        Map<String, Integer> failFirst = Map.of("a2", 2, "b1", 1);
        Map<String, AtomicInteger> tries = new ConcurrentHashMap<>();
        Set<String> finished = ConcurrentHashMap.newKeySet();
        List<String> outOfOrder = new CopyOnWriteArrayList<>();
        Map<String, List<String>> handledByLane = new ConcurrentHashMap<>();
        QueueTable table = QueueTestDatabase.jobs(run).lanes(List.of("run", "lane"), "id").build();
        QueueWorker.Handler handler = item -> {
            String body = item.row().getString("body");
            String lane = item.row().getString("lane");
            int index = Integer.parseInt(body.substring(1));
            if (index > 0 && !finished.contains(lane + (index - 1))) {
                outOfOrder.add(body + " before " + lane + (index - 1) + " finished");
            }
            if (tries.computeIfAbsent(body, k -> new AtomicInteger()).incrementAndGet() <= failFirst.getOrDefault(body, 0)) {
                return Uni.createFrom().failure(new IllegalStateException("refused " + body));
            }
            handledByLane.computeIfAbsent(lane, k -> new CopyOnWriteArrayList<>()).add(body);
            finished.add(body);
            return Uni.createFrom().item(QueueWorker.Outcome.done());
        };
        List<QueueWorker> workers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            QueueWorker worker = db.replica().queues().worker(table, QueueTestDatabase.settings(Duration.ofMillis(50),
                    Duration.ofMinutes(1), 10, 4), handler);
            worker.start();
            workers.add(worker);
        }
        await().atMost(WAIT).until(() -> finished.size() == a.size() + b.size());
        workers.forEach(QueueWorker::stop);
        assertEquals(List.of(), outOfOrder);
        assertEquals(List.of("a0", "a1", "a2", "a3", "a4", "a5"), handledByLane.get("a"));
        assertEquals(List.of("b0", "b1", "b2", "b3"), handledByLane.get("b"));
        assertEquals(3, tries.get("a2").get(), "tried until it passed");
        assertEquals(2, tries.get("b1").get());
        assertEquals(0, db.count("SELECT count(*) FROM job WHERE run = '" + run + "' AND done_at IS NULL"));
    }

    /**
     * A row whose transaction commits after a later one was handled gets a later number (its place
     * in the lane), so it comes after it: numbers follow what the queue saw, not the order of writing.
     */
    @Test
    void aRowThatCommitsLateComesAfterTheOnesHandledBeforeIt() throws Exception {
        String run = UUID.randomUUID().toString();
        QueueTable table = QueueTestDatabase.jobs(run).lanes(List.of(), "seq")
                .numbering(new QueueTable.Numbering("job_seq", "ziggurat.test.job_lane", "body = q.body || ' #' || n.seq")).build();
        List<String> handled = new CopyOnWriteArrayList<>();
        QueueWorker worker = db.replica().queues().worker(table, QueueTestDatabase.settings(Duration.ofHours(1),
                Duration.ofMinutes(1), 10, 1), item -> {
                    handled.add(item.row().getString("body"));
                    return Uni.createFrom().item(QueueWorker.Outcome.done());
                });
        try (Connection c = db.admin(); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.execute("INSERT INTO job (run, body) VALUES ('" + run + "', 'late')");
            db.enqueue(run, null, List.of("first"));
            assertEquals(1, worker.drain().await().atMost(WAIT));
            c.commit();
        }
        assertEquals(1, worker.drain().await().atMost(WAIT));
        assertEquals(2, handled.size(), handled.toString());
        assertTrue(handled.get(0).startsWith("first #") && handled.get(1).startsWith("late #"), handled.toString());
        long first = Long.parseLong(handled.get(0).substring("first #".length()));
        assertTrue(Long.parseLong(handled.get(1).substring("late #".length())) > first, "numbered as it was seen: " + handled);
    }

    @Test
    void anEnqueueWakesTheWorkersWithoutWaitingForAPoll() throws Exception {
        String run = UUID.randomUUID().toString();
        QueueTestDatabase.Replica replica = db.replica();
        CountDownLatch handled = new CountDownLatch(1);
        // Polls once an hour, the first at half an hour at the soonest: only a notification brings the job in time.
        QueueWorker worker = replica.queues().worker(QueueTestDatabase.jobs(run).build(), QueueTestDatabase.settings(
                Duration.ofHours(1), Duration.ofMinutes(1), 10, 1), item -> {
                    handled.countDown();
                    return Uni.createFrom().item(QueueWorker.Outcome.done());
                });
        worker.start();
        await().atMost(WAIT).until(() -> replica.queues().wakeupsHeard());
        db.enqueue(run, null, List.of("woken"));
        assertTrue(handled.await(WAIT.toSeconds(), TimeUnit.SECONDS), "claimed on the notification");
        await().atMost(WAIT).until(() -> db.count("SELECT count(*) FROM job WHERE run = '" + run + "' AND done_at IS NULL") == 0);
        assertEquals(1.0, replica.metrics().counter("ziggurat.queue.done", "queue", QueueTestDatabase.QUEUE).count());
        worker.stop();
    }
}
