package org.ziggurat.events.webhooks;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;
import org.ziggurat.platform.time.Backoff;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Delivers the outbox, on every replica: claims the due heads of the lanes
 * ({@link WebhookDeliveryRepository#claim}), sends each, signed, to its receiver, and records the attempt.
 * Deliveries run side by side up to {@link WebhookSettings#concurrency}, without blocking a
 * thread, so a slow receiver holds only its own lane (and never the recording of events, which
 * only writes the outbox). A delivery that ends frees its lane's next at once, not at the next poll.
 * A delivery is sent once unless a replica stops between the receiver's answer and its record
 * (then again after the lease, with the same {@code webhook-id}: receivers deduplicate by it).
 */
@ApplicationScoped
public class DeliveryWorker {

    private static final Logger LOG = Logger.getLogger("org.ziggurat.events.webhooks");
    /** An answer is read this far at most (the log keeps {@link WebhookSettings#answerBytes} of it); past it the connection is closed. */
    static final int MOST_READ = 64 * 1024;

    private final WebhookDeliveryRepository deliveries;
    private final WebhookSettings settings;
    private final TargetAddresses targets;
    private final WebhookSecrets secrets;
    private final WebhookBodies bodies;
    private final WebhookCreators creators;
    private final Vertx vertx;

    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicBoolean claiming = new AtomicBoolean();
    private final AtomicBoolean claimAgain = new AtomicBoolean();
    private volatile HttpClient client;
    private volatile long timer = -1;

    DeliveryWorker(WebhookDeliveryRepository deliveries, WebhookSettings settings, TargetAddresses targets, WebhookSecrets secrets,
            WebhookBodies bodies, WebhookCreators creators, Vertx vertx) {
        this.creators = creators;
        this.deliveries = deliveries;
        this.settings = settings;
        this.targets = targets;
        this.secrets = secrets;
        this.bodies = bodies;
        this.vertx = vertx;
    }

    /**
     * Polls every {@link WebhookSettings#poll} from a random point in the first period: the
     * scheduler's jobs tick on whole seconds at the earliest, on every replica at once; a timer of
     * our own keeps the period asked for and spreads the replicas' claims over it.
     */
    void start(@Observes StartupEvent started) {
        long period = Math.max(50, settings.poll().toMillis());
        timer = vertx.setPeriodic(1000 + ThreadLocalRandom.current().nextLong(period), period, id -> claimSoon());
    }

    /** A round of claims now, or right after the one under way (rounds never overlap on a replica). */
    void claimSoon() {
        claimAgain.set(true);
        if (claiming.compareAndSet(false, true)) {
            claimAgain.set(false);
            int room = settings.concurrency() - inFlight.get();
            Uni<Integer> round = room <= 0 ? Uni.createFrom().item(0)
                    : deliveries.claim(room, lease()).map(claimed -> {
                        claimed.forEach(this::start);
                        return claimed.size();
                    });
            round.subscribe().with(n -> roundEnded(), e -> {
                // The database away now is the next round's problem: nothing was claimed, or the lease returns it.
                LOG.warnf("event=webhook_outbox_unavailable error=%s", e.toString());
                claimAgain.set(false);
                roundEnded();
            });
        }
    }

    private void roundEnded() {
        claiming.set(false);
        if (claimAgain.get()) {
            claimSoon();
        }
    }

    /** Longer than any attempt can take, so that no other replica takes one that is under way. */
    private Duration lease() {
        return settings.connectTimeout().plus(settings.timeout()).plusSeconds(30);
    }

    private void start(WebhookDeliveryRepository.Claimed delivery) {
        inFlight.incrementAndGet();
        attempt(delivery).subscribe().with(next -> {
            inFlight.decrementAndGet();
            claimSoon();
        }, e -> {
            inFlight.decrementAndGet();
            LOG.warnf("event=webhook_record_failed delivery_id=%d error=%s", delivery.id(), e.toString());
        });
    }

    /**
     * The attempt, and its record; whether the record took (false: another replica had taken it
     * over). First, whether the person who answers for the webhook still has the rights that let
     * them ({@link WebhookCreators}): when not, nothing is sent and the webhook is disabled; when the
     * directory cannot say, nothing is sent and the attempt fails (tried again as any other).
     */
    Uni<Boolean> attempt(WebhookDeliveryRepository.Claimed delivery) {
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
                return deliveries.creatorLostRights(delivery, lost);
            }
            return deliver(delivery, at, started);
        });
    }

    private Uni<Boolean> deliver(WebhookDeliveryRepository.Claimed delivery, OffsetDateTime at, long started) {
        Uni<WebhookDeliveryRepository.Outcome> sent;
        try {
            byte[] body = bodies.body(delivery);
            String id = "msg_" + delivery.id();
            long timestamp = at.toEpochSecond();
            String signature = WebhookSecrets.signature(id, timestamp, body, signingSecrets(delivery, at));
            sent = targets.check(delivery.targetUrl())
                    .chain(target -> send(target, id, timestamp, signature, body))
                    .map(answer -> new WebhookDeliveryRepository.Outcome(at, millisSince(started), answer.status(), null, answer.text()))
                    .onFailure().recoverWithItem(e -> new WebhookDeliveryRepository.Outcome(at, millisSince(started), null, error(e), ""));
        } catch (RuntimeException e) {
            sent = Uni.createFrom().item(new WebhookDeliveryRepository.Outcome(at, millisSince(started), null, error(e), ""));
        }
        return sent.chain(outcome -> record(delivery, outcome));
    }

    private Uni<Boolean> record(WebhookDeliveryRepository.Claimed delivery, WebhookDeliveryRepository.Outcome outcome) {
        if (outcome.accepted()) {
            LOG.infof("event=webhook_delivered delivery_id=%d subscription_id=%d status=%d attempts=%d", delivery.id(),
                    delivery.subscriptionId(), outcome.status(), delivery.attempts());
            return deliveries.delivered(delivery, outcome);
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
        return deliveries.retry(delivery, outcome, wait);
    }

    private Uni<Boolean> giveUp(WebhookDeliveryRepository.Claimed delivery, WebhookDeliveryRepository.Outcome outcome, String reason) {
        LOG.warnf("event=webhook_disabled delivery_id=%d subscription_id=%d attempts=%d reason=%s", delivery.id(),
                delivery.subscriptionId(), delivery.attempts(), reason);
        return deliveries.givenUp(delivery, outcome, reason);
    }

    /**
     * After the {@code attempts}-th failure: the first wait doubled each time up to the longest,
     * then a random half of it taken off (jitter), so that the receivers of an outage are not all
     * tried again at the same instant.
     */
    static Duration retryAfter(int attempts, Duration first, Duration longest) {
        long full = Backoff.doubling(attempts, first, longest).toMillis();
        return Duration.ofMillis(full - ThreadLocalRandom.current().nextLong(full / 2 + 1));
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

    /** A receiver's answer: its status and the first bytes of its body (none from a target that is not public). */
    record Answer(int status, String text) {
    }

    /**
     * One POST to the address checked (the host named for TLS and {@code Host}), no redirect
     * followed, the whole exchange within the timeout (then the connection is reset).
     */
    private Uni<Answer> send(TargetAddresses.Target target, String id, long timestamp, String signature, byte[] body) {
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST)
                .setServer(SocketAddress.inetSocketAddress(new InetSocketAddress(target.address(), target.port())))
                .setHost(target.host()).setPort(target.port()).setSsl(target.ssl()).setURI(target.requestUri())
                .setFollowRedirects(false).setConnectTimeout(settings.connectTimeout().toMillis())
                .putHeader("content-type", WebhookBodies.CONTENT_TYPE)
                .putHeader("user-agent", "Ziggurat-Webhooks/1")
                .putHeader("webhook-id", id)
                .putHeader("webhook-timestamp", Long.toString(timestamp))
                .putHeader("webhook-signature", signature);
        AtomicReference<HttpClientRequest> sending = new AtomicReference<>();
        Future<Answer> exchange = client().request(options).compose(request -> {
            sending.set(request);
            return request.send(Buffer.buffer(body));
        }).compose(response -> read(response, kept(target, settings.answerBytes())));
        return Uni.createFrom().completionStage(exchange.toCompletionStage())
                .ifNoItem().after(settings.timeout()).failWith(TimeoutException::new)
                .onFailure().invoke(e -> {
                    HttpClientRequest request = sending.get();
                    if (request != null) {
                        request.reset();
                    }
                });
    }

    /**
     * How much of an answer's body the log keeps: {@code answerBytes} from a public target, nothing
     * from one the operator let into a private network (the log would read an internal endpoint back).
     */
    static int kept(TargetAddresses.Target target, int answerBytes) {
        return target.open() ? answerBytes : 0;
    }

    /** The status and up to {@code keep} bytes of the body; a long answer is cut off. */
    private Future<Answer> read(HttpClientResponse response, int keep) {
        Promise<Answer> answer = Promise.promise();
        Buffer kept = Buffer.buffer();
        AtomicInteger total = new AtomicInteger();
        response.handler(chunk -> {
            if (kept.length() < keep) {
                kept.appendBuffer(chunk.slice(0, Math.min(chunk.length(), keep - kept.length())));
            }
            if (total.addAndGet(chunk.length()) > MOST_READ && answer.tryComplete(answer(response, kept))) {
                response.request().reset();
            }
        });
        response.exceptionHandler(answer::tryFail);
        response.endHandler(v -> answer.tryComplete(answer(response, kept)));
        return answer.future();
    }

    private static Answer answer(HttpClientResponse response, Buffer kept) {
        // Text for the log, never a NUL (PostgreSQL's text refuses it); bytes cut mid-character become U+FFFD.
        String text = new String(kept.getBytes(), StandardCharsets.UTF_8).replace('\u0000', '\uFFFD');
        return new Answer(response.statusCode(), text);
    }

    private HttpClient client() {
        if (client == null) {
            synchronized (this) {
                if (client == null) {
                    // TLS verified against the JDK's trusted authorities, host names checked.
                    client = vertx.createHttpClient(new HttpClientOptions().setVerifyHost(true)
                            .setMaxPoolSize(4).setKeepAlive(true).setKeepAliveTimeout(30)
                            .setMaxRedirects(0).setTryUseCompression(false)
                            .setMaxHeaderSize(16 * 1024).setMaxInitialLineLength(8 * 1024));
                }
            }
        }
        return client;
    }

    @Scheduled(every = "1h", delayed = "5m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> purge() {
        return deliveries.purge(settings.keepLog()).replaceWithVoid().onFailure().recoverWithNull();
    }

    void close(@Observes ShutdownEvent stop) {
        vertx.cancelTimer(timer);
        if (client != null) {
            client.close();
        }
    }
}
