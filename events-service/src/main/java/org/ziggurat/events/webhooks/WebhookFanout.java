package org.ziggurat.events.webhooks;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.ziggurat.platform.rest.queue.QueueRepository;
import org.ziggurat.platform.rest.queue.QueueSettings;
import org.ziggurat.platform.rest.queue.QueueWorker;
import org.ziggurat.platform.rest.queue.Queues;

import java.time.Duration;
import java.util.Optional;

/**
 * Fans the webhook outbox out into deliveries, on every replica ({@link WebhookFanoutRepository}):
 * woken by the commit of each event that a subscription takes, it claims the oldest row of each
 * repository with one waiting, with a lease, and moves it and the rows behind it to the
 * repository's log, from which the lanes with room get their next deliveries in the same
 * transaction, which wakes the delivery workers. A replica that dies holding a
 * claim leaves it to another once the lease has run out; nothing is fanned out twice. A backlog is
 * worked at most half the time (a pause as long as each full batch took), beside the appends.
 */
@ApplicationScoped
public class WebhookFanout {

    /** Events one statement fans out at most: a backlog goes out in few commits, none of them long. */
    static final int EVENTS_PER_STATEMENT = 20;
    /** Far longer than one statement takes; only a replica that died holding a claim waits it out. */
    static final Duration LEASE = Duration.ofSeconds(30);
    /** Repositories fanned out at once per replica. */
    private static final int CONCURRENCY = 4;

    private final WebhookFanoutRepository outbox;
    private final Vertx vertx;
    private final QueueWorker worker;

    WebhookFanout(Queues queues, WebhookFanoutRepository outbox, WebhookSettings settings, Vertx vertx) {
        this.outbox = outbox;
        this.vertx = vertx;
        this.worker = queues.worker(WebhookFanoutRepository.FANOUT, new QueueSettings(settings.poll(), LEASE, CONCURRENCY,
                CONCURRENCY, settings.firstRetry(), settings.longestRetry(), Optional.empty()), this::fanOut);
    }

    void start(@Observes StartupEvent started) {
        worker.start();
    }

    /**
     * A full batch leaves the rest of the repository's backlog paused as long as it took
     * (WebhookFanoutRepository): this replica looks again when the pause ends, not at the next poll.
     */
    Uni<QueueWorker.Outcome> fanOut(QueueRepository.Claimed head) {
        long started = System.nanoTime();
        return outbox.fanOut(head, EVENTS_PER_STATEMENT - 1).map(fanned -> {
            if (fanned.events() == EVENTS_PER_STATEMENT) {
                vertx.setTimer(Math.max(1, (System.nanoTime() - started) / 1_000_000 + 1), t -> worker.wake());
            }
            return QueueWorker.Outcome.recorded(fanned.events() > 0);
        });
    }

    /** This replica's worker (tests run rounds of it beside the started one, as another replica would). */
    QueueWorker worker() {
        return worker;
    }
}
