package org.ziggurat.auth.audit;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.core.http.HttpClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;
import org.ziggurat.platform.rest.queue.AuditLane;
import org.ziggurat.platform.rest.queue.QueueRepository;
import org.ziggurat.platform.rest.queue.QueueSettings;
import org.ziggurat.platform.rest.queue.QueueTable;
import org.ziggurat.platform.rest.queue.QueueWorker;
import org.ziggurat.platform.rest.queue.Queues;
import org.ziggurat.platform.token.PlatformClaims;
import org.ziggurat.platform.token.PlatformTokenSigner;

import java.time.Duration;
import java.util.Optional;

/**
 * Relays the audit outbox (V25, V30: written by triggers) to events-service
 * ({@code POST /internal/audit-events}, with this service's own platform token), in one lane for
 * every replica, one event after another in the order the queue first saw them
 * ({@link AuditLane}): done when events-service answers 204 (it records an event once, so one sent
 * again after a replica stopped mid-way changes nothing); a failed one is tried again, with a
 * doubling wait, before any later one. So events-service records this service's events in the
 * order they were made.
 */
@ApplicationScoped
public class AuditRelay {

    /** Delivered events go after a day (events-service keeps them). */
    static final QueueTable OUTBOX = AuditLane.of("auth_audit", "audit_outbox", "q.done_at IS NULL", "ziggurat.auth.audit_outbox")
            .purgeable("q.done_at < {cutoff}").build();

    private static final Logger LOG = Logger.getLogger("org.ziggurat.auth.audit");

    private final AuditSettings settings;
    private final PlatformTokenSigner signer;
    private final HttpClient client;
    private final QueueWorker worker;

    AuditRelay(Queues queues, AuditSettings settings, PlatformTokenSigner signer, Vertx vertx) {
        this.settings = settings;
        this.signer = signer;
        this.client = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout((int) settings.timeout().toMillis()));
        this.worker = queues.worker(OUTBOX, new QueueSettings(settings.poll(), settings.lease(), 1, 1, settings.firstRetry(),
                settings.longestRetry(), Optional.of(Duration.ofDays(1))), this::send);
    }

    /** Without events-service's URL the outbox keeps the events until it is set. */
    void start(@Observes StartupEvent started) {
        if (settings.eventsUrl().isPresent()) {
            worker.start();
        }
    }

    /** The lane's events in order while they are recorded, up to the first failure; how many were relayed. */
    public Uni<Integer> relay() {
        return worker.drain();
    }

    private Uni<QueueWorker.Outcome> send(QueueRepository.Claimed event) {
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST)
                .setAbsoluteURI(settings.eventsUrl().orElseThrow() + "/internal/audit-events")
                .putHeader(PlatformClaims.HEADER, signer.cachedServiceToken()).putHeader("Content-Type", "application/json")
                .setIdleTimeout(settings.timeout().toMillis());
        return client.request(options).chain(request -> request.send(Buffer.buffer(event.row().getJsonObject("payload").encode())))
                .chain(response -> response.body().map(body -> {
                    if (response.statusCode() != 204) {
                        throw new IllegalStateException("events-service answered " + response.statusCode());
                    }
                    return QueueWorker.Outcome.done();
                }))
                .ifNoItem().after(settings.timeout()).fail()
                .onFailure().invoke(e -> LOG.warnf("event=audit_relay_failed outbox_id=%d source_id=%d attempts=%d error=%s",
                        event.id(), event.row().getLong("seq"), event.attempts(), e.toString()));
    }
}
