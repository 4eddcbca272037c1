package org.ziggurat.auth.audit;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
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

/**
 * Relays the audit outbox to events-service ({@code POST /internal/audit-events}, with this
 * service's own platform token), on every replica, one event after another in the order written:
 * each claimed by one replica, done when events-service answers 204 (it records an event once,
 * so one sent again after a replica stopped mid-way changes nothing), retried with a doubling wait.
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

    /** One round: what was due when it started, one after another in the order written; how many were relayed. */
    public Uni<Integer> relay() {
        return outbox.claim(BATCH, settings.lease())
                .onItem().transformToMulti(claimed -> Multi.createFrom().iterable(claimed))
                .onItem().transformToUniAndConcatenate(this::send)
                .collect().asList()
                .map(results -> (int) results.stream().filter(Boolean::booleanValue).count());
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
                    Duration wait = Backoff.doubling(event.attempts(), settings.firstRetry(), settings.longestRetry());
                    LOG.warnf("event=audit_relay_failed outbox_id=%d attempts=%d retry_in=%ds error=%s", event.id(),
                            event.attempts(), wait.toSeconds(), e.toString());
                    return outbox.failed(event.id(), String.valueOf(e.getMessage()), wait).replaceWith(false);
                });
    }

    @Scheduled(every = "1h", delayed = "5m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> purge() {
        return outbox.purgeDone(Duration.ofDays(1)).replaceWithVoid().onFailure().recoverWithNull();
    }
}
