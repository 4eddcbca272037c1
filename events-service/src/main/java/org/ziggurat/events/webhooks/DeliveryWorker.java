package org.ziggurat.events.webhooks;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;
import org.ziggurat.platform.rest.queue.QueueSettings;
import org.ziggurat.platform.rest.queue.QueueWorker;
import org.ziggurat.platform.rest.queue.Queues;
import org.ziggurat.platform.time.Backoff;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

/**
 * Delivers the outbox, on every replica: the queue claims the due heads of the lanes
 * ({@link WebhookDeliveryRepository#deliveries}); each is sent, signed, to its receiver
 * ({@link WebhookSender}), and its attempt recorded. Deliveries run side by side up to
 * {@link WebhookSettings#concurrency}, without blocking a thread, so a slow receiver holds only its
 * own lane (and never the recording of events, which only writes the outbox). A delivery that ends
 * frees its lane's next at once, and a new one wakes every replica, not the next poll. A delivery
 * is sent once unless a replica stops between the receiver's answer and its record (then again
 * after the lease, with the same {@code webhook-id}: receivers deduplicate by it).
 */
@ApplicationScoped
public class DeliveryWorker {

    private static final Logger LOG = Logger.getLogger("org.ziggurat.events.webhooks");

    private final WebhookDeliveryRepository deliveries;
    private final WebhookSettings settings;
    private final TargetAddresses targets;
    private final WebhookSecrets secrets;
    private final WebhookBodies bodies;
    private final WebhookCreators creators;
    private final WebhookSender sender;
    private final QueueWorker worker;

    DeliveryWorker(Queues queues, WebhookDeliveryRepository deliveries, WebhookSettings settings, TargetAddresses targets,
            WebhookSecrets secrets, WebhookBodies bodies, WebhookCreators creators, WebhookSender sender) {
        this.deliveries = deliveries;
        this.settings = settings;
        this.targets = targets;
        this.secrets = secrets;
        this.bodies = bodies;
        this.creators = creators;
        this.sender = sender;
        // The lease: longer than any attempt can take, so that no other replica takes one that is under way.
        this.worker = queues.worker(WebhookDeliveryRepository.deliveries(settings.endedAccessGrace()), new QueueSettings(settings.poll(),
                settings.connectTimeout().plus(settings.timeout()).plusSeconds(30), settings.concurrency(), settings.concurrency(),
                settings.firstRetry(), settings.longestRetry(), Optional.of(settings.keepLog())),
                claimed -> attempt(WebhookDeliveryRepository.Claimed.from(claimed)));
    }

    void start(@Observes StartupEvent started) {
        worker.start();
    }

    /**
     * The attempt, and its record (which matches nothing when another replica had taken it over). First, whether the person who answers for the webhook still has the rights that let
     * them ({@link WebhookCreators}): when not, nothing is sent and the webhook is disabled; when the
     * directory cannot say, nothing is sent and the attempt fails (tried again as any other).
     */
    Uni<QueueWorker.Outcome> attempt(WebhookDeliveryRepository.Claimed delivery) {
        OffsetDateTime at = OffsetDateTime.now(ZoneOffset.UTC);
        long started = System.nanoTime();
        return Uni.createFrom().deferred(() -> creators.lostRights(delivery)).onItemOrFailure().transformToUni((lost, failure) -> {
            if (failure != null) {
                return record(delivery, new WebhookDeliveryRepository.Outcome(at, millisSince(started), null,
                        "whether its creator may still send it could not be checked: " + error(failure), ""));
            }
            if (lost != null) {
                LOG.warnf("event=webhook_disabled delivery_id=%d subscription_id=%d creator_id=%d reason=creator_lost_rights",
                        delivery.id(), delivery.subscriptionId(), delivery.creatorId());
                return deliveries.creatorLostRights(delivery, lost).replaceWith(QueueWorker.Outcome.recorded(false));
            }
            return deliver(delivery, at, started);
        });
    }

    private Uni<QueueWorker.Outcome> deliver(WebhookDeliveryRepository.Claimed delivery, OffsetDateTime at, long started) {
        Uni<WebhookDeliveryRepository.Outcome> sent;
        try {
            byte[] body = bodies.body(delivery);
            String id = "msg_" + delivery.id();
            long timestamp = at.toEpochSecond();
            String signature = WebhookSecrets.signature(id, timestamp, body, signingSecrets(delivery, at));
            sent = targets.check(delivery.targetUrl())
                    .chain(target -> sender.send(target, id, timestamp, signature, body))
                    .map(answer -> new WebhookDeliveryRepository.Outcome(at, millisSince(started), answer.status(), null, answer.text()))
                    .onFailure().recoverWithItem(e -> new WebhookDeliveryRepository.Outcome(at, millisSince(started), null, error(e), ""));
        } catch (RuntimeException e) {
            sent = Uni.createFrom().item(new WebhookDeliveryRepository.Outcome(at, millisSince(started), null, error(e), ""));
        }
        return sent.chain(outcome -> record(delivery, outcome));
    }

    private Uni<QueueWorker.Outcome> record(WebhookDeliveryRepository.Claimed delivery, WebhookDeliveryRepository.Outcome outcome) {
        if (outcome.accepted()) {
            LOG.infof("event=webhook_delivered delivery_id=%d subscription_id=%d status=%d attempts=%d", delivery.id(),
                    delivery.subscriptionId(), outcome.status(), delivery.attempts());
            return deliveries.delivered(delivery, outcome).map(QueueWorker.Outcome::recorded);
        }
        String failure = outcome.status() != null ? "status " + outcome.status() : outcome.error();
        if (outcome.status() != null && outcome.status() == 410) {
            return giveUp(delivery, outcome, "The receiver answered 410 Gone.");
        }
        Duration wait = retryAfter(delivery.attempts(), settings.firstRetry(), settings.longestRetry());
        OffsetDateTime first = delivery.firstAttemptAt() == null ? outcome.at() : delivery.firstAttemptAt();
        if (outcome.at().plus(wait).isAfter(first.plus(settings.retryFor()))) {
            return giveUp(delivery, outcome, "Deliveries failed for " + settings.retryFor().toHours() + " hours (the last: "
                    + failure + ").");
        }
        LOG.infof("event=webhook_failed delivery_id=%d subscription_id=%d attempts=%d retry_in_ms=%d failure=%s",
                delivery.id(), delivery.subscriptionId(), delivery.attempts(), wait.toMillis(), failure);
        return deliveries.retry(delivery, outcome, wait).replaceWith(QueueWorker.Outcome.recorded(false));
    }

    private Uni<QueueWorker.Outcome> giveUp(WebhookDeliveryRepository.Claimed delivery, WebhookDeliveryRepository.Outcome outcome, String reason) {
        LOG.warnf("event=webhook_disabled delivery_id=%d subscription_id=%d attempts=%d reason=%s", delivery.id(),
                delivery.subscriptionId(), delivery.attempts(), reason);
        return deliveries.givenUp(delivery, outcome, reason).map(QueueWorker.Outcome::recorded);
    }

    /**
     * After the {@code attempts}-th failure: the first wait doubled each time up to the longest,
     * then a random half of it taken off (jitter), so that the receivers of an outage are not all
     * tried again at the same instant.
     */
    static Duration retryAfter(int attempts, Duration first, Duration longest) {
        return Backoff.jittered(attempts, first, longest);
    }

    /** The secret, and during a rotation the previous one too (a receiver that has either verifies). */
    private List<String> signingSecrets(WebhookDeliveryRepository.Claimed delivery, OffsetDateTime at) {
        List<String> list = new ArrayList<>(2);
        list.add(secrets.open(delivery.secretSealed()));
        if (delivery.previousSecretSealed() != null && delivery.previousSecretUntil() != null
                && delivery.previousSecretUntil().isAfter(at)) {
            list.add(secrets.open(delivery.previousSecretSealed()));
        }
        return list;
    }

    private static int millisSince(long startedNanos) {
        return (int) Math.min(Integer.MAX_VALUE, (System.nanoTime() - startedNanos) / 1_000_000);
    }

    private static String error(Throwable e) {
        if (e instanceof TargetAddresses.Refused) {
            return "refused: " + e.getMessage();
        }
        if (e instanceof TimeoutException) {
            return "no answer within the timeout";
        }
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return message.length() > 500 ? message.substring(0, 500) : message;
    }

    /**
     * How much of an answer's body the log keeps: {@code answerBytes} from a public target, nothing
     * from one the operator let into a private network (the log would read an internal endpoint back).
     */
    static int kept(TargetAddresses.Target target, int answerBytes) {
        return target.open() ? answerBytes : 0;
    }
}
