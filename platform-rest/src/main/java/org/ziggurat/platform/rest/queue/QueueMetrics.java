package org.ziggurat.platform.rest.queue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A queue's meters, tagged with its name: what its worker claimed, finished, put back for a retry,
 * found taken over, and purged (counters); what it handles now, what is owed and how long the
 * oldest due item has waited (gauges; the last two as the worker last read them).
 */
final class QueueMetrics {

    final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong pending = new AtomicLong();
    private final AtomicLong oldestDueMillis = new AtomicLong();
    private final Counter claimed;
    private final Counter done;
    private final Counter retried;
    private final Counter takenOver;
    private final Counter purged;

    QueueMetrics(MeterRegistry registry, String queue) {
        claimed = registry.counter("ziggurat.queue.claimed", "queue", queue);
        done = registry.counter("ziggurat.queue.done", "queue", queue);
        retried = registry.counter("ziggurat.queue.retried", "queue", queue);
        takenOver = registry.counter("ziggurat.queue.taken.over", "queue", queue);
        purged = registry.counter("ziggurat.queue.purged", "queue", queue);
        Gauge.builder("ziggurat.queue.in.flight", inFlight, AtomicInteger::get).tag("queue", queue).register(registry);
        Gauge.builder("ziggurat.queue.pending", pending, AtomicLong::get).tag("queue", queue).register(registry);
        Gauge.builder("ziggurat.queue.oldest.due", oldestDueMillis, m -> m.get() / 1000.0).tag("queue", queue)
                .baseUnit("seconds").register(registry);
    }

    void claimed(int items) {
        claimed.increment(items);
    }

    void done() {
        done.increment();
    }

    void retried() {
        retried.increment();
    }

    /** A record that matched nothing: another claim had taken the item over (its lease ran out). */
    void takenOver() {
        takenOver.increment();
    }

    void purged(int rows) {
        purged.increment(rows);
    }

    void backlog(QueueRepository.Backlog backlog) {
        pending.set(backlog.pending());
        oldestDueMillis.set(Math.round(backlog.oldestDueSeconds() * 1000));
    }
}
