package org.ziggurat.events.webhooks;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
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
 * repository with one waiting, with a lease, and turns it and the rows behind it into their
 * deliveries in one statement, which wakes the delivery workers. A replica that dies holding a
 * claim leaves it to another once the lease has run out; nothing is fanned out twice.
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
    private final QueueWorker worker;

    WebhookFanout(Queues queues, WebhookFanoutRepository outbox, WebhookSettings settings) {
        this.outbox = outbox;
        this.worker = queues.worker(WebhookFanoutRepository.FANOUT, new QueueSettings(settings.poll(), LEASE, CONCURRENCY,
                CONCURRENCY, settings.firstRetry(), settings.longestRetry(), Optional.empty()), this::fanOut);
    }

    void start(@Observes StartupEvent started) {
        worker.start();
    }

    Uni<QueueWorker.Outcome> fanOut(QueueRepository.Claimed head) {
        return outbox.fanOut(head, EVENTS_PER_STATEMENT - 1).map(fanned -> QueueWorker.Outcome.recorded(fanned.events() > 0));
    }

    /** This replica's worker (tests run rounds of it beside the started one, as another replica would). */
    QueueWorker worker() {
        return worker;
    }
}
