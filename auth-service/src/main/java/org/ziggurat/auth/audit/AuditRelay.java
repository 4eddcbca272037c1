package org.ziggurat.auth.audit;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.core.http.HttpClient;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.platform.token.PlatformClaims;
import org.ziggurat.platform.time.Backoff;
import org.ziggurat.platform.token.PlatformTokenSigner;

import java.time.Duration;
import java.util.List;

/**
 * Relays the audit outbox to events-service ({@code POST /internal/audit-events}, with this
 * service's own platform token), from whichever replica holds the lane, one event after another in
 * the order of their numbers (AuditOutboxRepository): done when events-service answers 204 (it
 * records an event once, so one sent again after a replica stopped mid-way changes nothing); at
 * the first failure the round stops, and that event is tried again, with a doubling wait, before
 * any later one. So events-service records this service's events in the order they were made.
 */
@ApplicationScoped
public class AuditRelay {

    private static final Logger LOG = Logger.getLogger("org.ziggurat.auth.audit");
    private static final int BATCH = 50;

    private final AuditOutboxRepository outbox;
    private final AuditSettings settings;
    private final PlatformTokenSigner signer;
    private final HttpClient client;

    AuditRelay(AuditOutboxRepository outbox, AuditSettings settings, PlatformTokenSigner signer, Vertx vertx) {
        this.outbox = outbox;
        this.settings = settings;
        this.signer = signer;
        this.client = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout((int) settings.timeout().toMillis()));
    }

    @Scheduled(every = "${ziggurat.auth.audit.poll:2s}", delayed = "1s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> relayDue() {
        if (settings.eventsUrl().isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return relay().replaceWithVoid()
                .onFailure().invoke(e -> LOG.warnf("event=audit_outbox_unavailable error=%s", e.toString()))
                .onFailure().recoverWithNull();
    }

    /**
     * One round: the lane's events in order, batch after batch while they come full, up to the first
     * failure; how many were relayed.
     */
    public Uni<Integer> relay() {
        return outbox.claim(BATCH, settings.lease()).chain(claimed -> sendInOrder(claimed, 0).chain(sent ->
                sent == BATCH ? relay().map(more -> sent + more) : Uni.createFrom().item(sent)));
    }

    /** From the {@code from}-th on, each once the one before was recorded; how many were, up to the first failure. */
    private Uni<Integer> sendInOrder(List<AuditOutboxRepository.Claimed> claimed, int from) {
        if (from == claimed.size()) {
            return Uni.createFrom().item(from);
        }
        return send(claimed.get(from)).chain(sent -> sent ? sendInOrder(claimed, from + 1) : Uni.createFrom().item(from));
    }

    private Uni<Boolean> send(AuditOutboxRepository.Claimed event) {
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST)
                .setAbsoluteURI(settings.eventsUrl().orElseThrow() + "/internal/audit-events")
                .putHeader(PlatformClaims.HEADER, signer.cachedServiceToken()).putHeader("Content-Type", "application/json")
                .setIdleTimeout(settings.timeout().toMillis());
        return client.request(options).chain(request -> request.send(Buffer.buffer(event.payload())))
                .chain(response -> response.body().map(body -> {
                    if (response.statusCode() != 204) {
                        throw new IllegalStateException("events-service answered " + response.statusCode());
                    }
                    return true;
                }))
                .ifNoItem().after(settings.timeout()).fail()
                .call(() -> outbox.done(event.id()))
                .onFailure().recoverWithUni(e -> {
                    int attempts = event.attempts() + 1;
                    Duration wait = Backoff.doubling(attempts, settings.firstRetry(), settings.longestRetry());
                    LOG.warnf("event=audit_relay_failed outbox_id=%d source_id=%d attempts=%d retry_in=%ds error=%s", event.id(),
                            event.seq(), attempts, wait.toSeconds(), e.toString());
                    return outbox.failed(event.id(), String.valueOf(e.getMessage()), wait).replaceWith(false);
                });
    }

    @Scheduled(every = "1h", delayed = "5m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> purge() {
        return outbox.purgeDone(Duration.ofDays(1)).replaceWithVoid().onFailure().recoverWithNull();
    }
}
