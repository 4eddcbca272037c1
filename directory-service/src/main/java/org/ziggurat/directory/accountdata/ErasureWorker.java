package org.ziggurat.directory.accountdata;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;
import org.ziggurat.platform.rest.queue.QueueRepository;
import org.ziggurat.platform.rest.queue.QueueSettings;
import org.ziggurat.platform.rest.queue.QueueWorker;
import org.ziggurat.platform.rest.queue.Queues;

import java.time.Duration;
import java.util.Optional;

/**
 * Delivers deleted accounts' erasures to the services that hold their data, and sign-outs after a
 * password changed through the API to auth-service, on every replica: the queue claims what is due,
 * this calls the service, and the queue records it done, or tries it again later. At least once: a
 * service's erasure is idempotent. The audit stream's events go to events-service in one lane
 * ({@link ErasureRepository#AUDIT}): one after another in the order of their numbers, a failed one
 * tried again before any later one, so events-service records them in the order they were made.
 */
@ApplicationScoped
public class ErasureWorker {

    private static final Logger LOG = Logger.getLogger(ErasureWorker.class);
    private static final int BATCH = 20;

    private final Peers peers;
    private final PeerSettings settings;
    private final QueueWorker deliveries;
    private final QueueWorker audit;

    ErasureWorker(Queues queues, Peers peers, PeerSettings settings) {
        this.peers = peers;
        this.settings = settings;
        this.deliveries = queues.worker(ErasureRepository.DELIVERIES, settings(Optional.empty()), this::deliver);
        this.audit = queues.worker(ErasureRepository.AUDIT, settings(Optional.of(Duration.ofDays(1))), this::audit);
    }

    private QueueSettings settings(Optional<Duration> keepDone) {
        return new QueueSettings(settings.poll(), settings.lease(), BATCH, 1, settings.firstRetry(), settings.longestRetry(),
                keepDone);
    }

    void start(@Observes StartupEvent started) {
        deliveries.start();
        audit.start();
    }

    /** One round: the erasures and sign-outs due when it started, then the audit lane while it moves; how many were delivered. */
    public Uni<Integer> deliverBatch() {
        return deliveries.round().chain(delivered -> audit.drain().map(audited -> delivered + audited));
    }

    private Uni<QueueWorker.Outcome> audit(QueueRepository.Claimed event) {
        Row row = event.row();
        return peers.audit(row.getString("peer"), row.getJsonObject("payload").encode())
                .ifNoItem().after(settings.lease().dividedBy(2)).fail()
                .replaceWith(QueueWorker.Outcome.done())
                .onFailure().invoke(e -> LOG.warnf("event=peer_delivery_failed kind=audit peer=%s person_id=%d attempts=%d "
                        + "error=%s", row.getString("peer"), row.getLong("person_id"), event.attempts(), e.toString()));
    }

    private Uni<QueueWorker.Outcome> deliver(QueueRepository.Claimed erasure) {
        Row row = erasure.row();
        String kind = row.getString("kind");
        String peer = row.getString("peer");
        long personId = row.getLong("person_id");
        Uni<Void> delivered = switch (kind) {
            case "sign_out" -> peers.signOut(peer, personId);
            default -> peers.erase(peer, personId, row.getString("username"));
        };
        return delivered
                .ifNoItem().after(settings.lease().dividedBy(2)).fail()
                .invoke(() -> LOG.infof("event=peer_delivered kind=%s peer=%s person_id=%d attempts=%d", kind, peer, personId,
                        erasure.attempts()))
                .replaceWith(QueueWorker.Outcome.done())
                .onFailure().invoke(e -> LOG.warnf("event=peer_delivery_failed kind=%s peer=%s person_id=%d attempts=%d error=%s",
                        kind, peer, personId, erasure.attempts(), e.toString()));
    }
}
