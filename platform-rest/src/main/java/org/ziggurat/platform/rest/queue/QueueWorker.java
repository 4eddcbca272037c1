package org.ziggurat.platform.rest.queue;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import org.jboss.logging.Logger;
import org.ziggurat.platform.logging.LogValues;
import org.ziggurat.platform.time.Backoff;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Works one queue on this replica: claims what is due ({@link QueueRepository#claim}), hands each
 * item to its {@link Handler}, and records how it ended: done, or tried again after a doubling wait
 * with jitter. It claims when woken (a notification of the queue's channel, sent by the transaction
 * that enqueued; or an item of its own that ended, which may free its lane's next), and every
 * {@link QueueSettings#poll} besides, so that a lost notification delays an item but never loses
 * it. Claims never overlap on a replica; up to {@link QueueSettings#concurrency} items are handled
 * at once, none of them holding back the claims of the others.
 */
public final class QueueWorker {

    /** What a worker does with an item; a failure of its Uni is a failed attempt, tried again. */
    public interface Handler {
        Uni<Outcome> handle(QueueRepository.Claimed item);
    }

    /** How an item's attempt ended. */
    public sealed interface Outcome {

        static Outcome done() {
            return new Done();
        }

        static Outcome retry(String error) {
            return new Retry(error);
        }

        /** The handler recorded the end itself (in its own statement or transaction); {@code finished}: not to be tried again. */
        static Outcome recorded(boolean finished) {
            return new Recorded(finished);
        }
    }

    record Done() implements Outcome {
    }

    record Retry(String error) implements Outcome {
    }

    record Recorded(boolean finished) implements Outcome {
    }

    private static final Logger LOG = Logger.getLogger(QueueWorker.class);
    private static final long BACKLOG_EVERY_MS = 30_000;

    private final Vertx vertx;
    private final QueueRepository queue;
    private final QueueSettings settings;
    private final Handler handler;
    private final QueueMetrics metrics;
    private final Queues owner;
    private final String name;
    private final AtomicBoolean claiming = new AtomicBoolean();
    private final AtomicBoolean claimAgain = new AtomicBoolean();
    private volatile boolean running;
    private final long[] timers = {-1, -1, -1};

    QueueWorker(Vertx vertx, QueueRepository queue, QueueSettings settings, Handler handler, QueueMetrics metrics, Queues owner) {
        this.vertx = vertx;
        this.queue = queue;
        this.settings = settings;
        this.handler = handler;
        this.metrics = metrics;
        this.owner = owner;
        this.name = queue.table().name();
    }

    public QueueRepository queue() {
        return queue;
    }

    /**
     * Starts polling (the first poll at a random point of the second half of the first period, so
     * replicas started together spread their claims), listening for wake-ups, purging hourly (the
     * first after five minutes) where finished items are purged, and reading the backlog for the gauges.
     */
    public void start() {
        running = true;
        long period = Math.max(50, settings.poll().toMillis());
        timers[0] = vertx.setPeriodic(period / 2 + ThreadLocalRandom.current().nextLong(period / 2 + 1), period, id -> wake());
        if (settings.keepDone().isPresent()) {
            timers[1] = vertx.setPeriodic(Duration.ofMinutes(5).toMillis(), Duration.ofHours(1).toMillis(),
                    id -> purge().subscribe().with(n -> { }, e -> LOG.warnf("event=queue_purge_failed queue=%s error=%s", name, e)));
        }
        timers[2] = vertx.setPeriodic(1000, BACKLOG_EVERY_MS, id -> queue.backlog().subscribe().with(metrics::backlog, e -> { }));
        owner.started(this);
    }

    public void stop() {
        running = false;
        for (long timer : timers) {
            vertx.cancelTimer(timer);
        }
    }

    /** A claim now, or right after the one under way (claims never overlap on a replica); nothing when stopped. */
    public void wake() {
        if (!running) {
            return;
        }
        claimAgain.set(true);
        if (claiming.compareAndSet(false, true)) {
            claimAgain.set(false);
            int want = Math.min(settings.batch(), settings.concurrency() - metrics.inFlight.get());
            Uni<Integer> round = want <= 0 ? Uni.createFrom().item(0) : claim(want).map(claimed -> {
                claimed.forEach(this::startHandling);
                return claimed.size();
            });
            round.subscribe().with(claimed -> {
                if (want > 0 && claimed == want) {
                    claimAgain.set(true); // a full claim: more may be due (without room, an item's end wakes it)
                }
                claimEnded();
            }, e -> {
                // The database away now is the next poll's problem: nothing was claimed, or the lease returns it.
                LOG.warnf("event=queue_unavailable queue=%s error=%s", name, e.toString());
                claimAgain.set(false);
                claimEnded();
            });
        }
    }

    private void claimEnded() {
        claiming.set(false);
        if (claimAgain.get()) {
            wake();
        }
    }

    private void startHandling(QueueRepository.Claimed item) {
        metrics.inFlight.incrementAndGet();
        handle(item).subscribe().with(finished -> {
            metrics.inFlight.decrementAndGet();
            wake(); // its lane's next may be due now, and there is room for another
        }, e -> {
            metrics.inFlight.decrementAndGet();
            LOG.warnf("event=queue_record_failed queue=%s item_id=%d error=%s", name, item.id(), e.toString());
        });
    }

    /**
     * One round now, beside whatever else claims (as another replica would): up to a batch of due
     * items, handled up to {@link QueueSettings#concurrency} at once; how many finished.
     */
    public Uni<Integer> round() {
        return claim(settings.batch()).onItem().transformToMulti(claimed -> Multi.createFrom().iterable(claimed))
                .onItem().transformToUni(this::handle).merge(settings.concurrency())
                .collect().asList().map(ends -> (int) ends.stream().filter(Boolean::booleanValue).count());
    }

    /** Rounds while they finish something (in ordered lanes, each frees the next); how many finished. */
    public Uni<Integer> drain() {
        return round().chain(finished -> finished == 0 ? Uni.createFrom().item(0) : drain().map(more -> finished + more));
    }

    private Uni<List<QueueRepository.Claimed>> claim(int limit) {
        return queue.claim(limit, settings.lease()).invoke(claimed -> metrics.claimed(claimed.size()));
    }

    /** The handler's attempt, and its record; whether the item finished. */
    Uni<Boolean> handle(QueueRepository.Claimed item) {
        return Uni.createFrom().deferred(() -> handler.handle(item))
                .onFailure().recoverWithItem(e -> Outcome.retry(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()))
                .chain(outcome -> record(item, outcome));
    }

    private Uni<Boolean> record(QueueRepository.Claimed item, Outcome outcome) {
        if (outcome instanceof Recorded recorded) {
            if (recorded.finished()) {
                metrics.done();
            }
            return Uni.createFrom().item(recorded.finished());
        }
        if (outcome instanceof Retry retry) {
            Duration wait = Backoff.jittered(item.attempts(), settings.firstRetry(), settings.longestRetry());
            LOG.infof("event=queue_retry queue=%s item_id=%d attempts=%d retry_in_ms=%d error=%s", name, item.id(),
                    item.attempts(), wait.toMillis(), LogValues.escaped(retry.error()));
            String error = retry.error().length() > 1000 ? retry.error().substring(0, 1000) : retry.error();
            return queue.retry(item, error, wait).invoke(took -> count(took, metrics::retried)).replaceWith(false);
        }
        return queue.done(item).invoke(took -> count(took, metrics::done));
    }

    private void count(boolean took, Runnable meter) {
        if (took) {
            meter.run();
        } else {
            LOG.infof("event=queue_taken_over queue=%s: a claim whose lease ran out found its item claimed again", name);
            metrics.takenOver();
        }
    }

    /** Removes what finished longer ago than the settings keep; how many. */
    public Uni<Integer> purge() {
        return settings.keepDone().map(keep -> queue.purge(keep).invoke(metrics::purged)).orElse(Uni.createFrom().item(0));
    }
}
