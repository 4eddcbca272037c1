package org.ziggurat.directory.accountdata;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.directory.mail.MailWorker;

import java.time.Duration;
import java.util.List;

/**
 * Delivers deleted accounts' erasures to the services that hold their data, and sign-outs after a
 * password changed through the API to auth-service, on every replica:
 * each claims what is due, calls the service, and records it done; a failure is tried again later,
 * the wait doubling. At least once: a service's erasure is idempotent. The audit stream's events go
 * to events-service in one lane (V17), from whichever replica holds it, one after another in the
 * order of their numbers; at the first failure the round stops, and that event is tried again
 * before any later one, so events-service records them in the order they were made.
 */
@ApplicationScoped
public class ErasureWorker {

    private static final Logger LOG = Logger.getLogger(ErasureWorker.class);
    private static final int BATCH = 20;

    private final ErasureRepository erasures;
    private final Peers peers;
    private final PeerSettings settings;

    ErasureWorker(ErasureRepository erasures, Peers peers, PeerSettings settings) {
        this.erasures = erasures;
        this.peers = peers;
        this.settings = settings;
    }

    @Scheduled(every = "${ziggurat.directory.peers.poll:2s}", delayed = "1s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> deliverDue() {
        return deliverBatch().replaceWithVoid()
                .onFailure().invoke(e -> LOG.warnf("event=erasures_unavailable error=%s", e.toString()))
                .onFailure().recoverWithNull();
    }

    @Scheduled(every = "1h", delayed = "5m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> purgeDeliveredAudit() {
        return erasures.purgeDeliveredAudit(Duration.ofDays(1)).replaceWithVoid().onFailure().recoverWithNull();
    }

    /** One round: the erasures and sign-outs due when it started, then the audit lane; how many were delivered. */
    public Uni<Integer> deliverBatch() {
        return erasures.claim(BATCH, settings.lease())
                .onItem().transformToMulti(claimed -> Multi.createFrom().iterable(claimed))
                .onItem().transformToUniAndConcatenate(this::deliver)
                .collect().asList()
                .map(results -> (int) results.stream().filter(Boolean::booleanValue).count())
                .chain(delivered -> relayAudit().map(audited -> delivered + audited));
    }

    /** The audit lane's events in order, batch after batch while they come full, up to the first failure; how many. */
    public Uni<Integer> relayAudit() {
        return erasures.claimAudit(BATCH, settings.lease()).chain(claimed -> auditInOrder(claimed, 0).chain(sent ->
                sent == BATCH ? relayAudit().map(more -> sent + more) : Uni.createFrom().item(sent)));
    }

    /** From the {@code from}-th on, each once the one before was recorded; how many were, up to the first failure. */
    private Uni<Integer> auditInOrder(List<ErasureRepository.Claimed> claimed, int from) {
        if (from == claimed.size()) {
            return Uni.createFrom().item(from);
        }
        return audit(claimed.get(from)).chain(sent -> sent ? auditInOrder(claimed, from + 1) : Uni.createFrom().item(from));
    }

    private Uni<Boolean> audit(ErasureRepository.Claimed event) {
        return peers.audit(event.peer(), event.payload())
                .ifNoItem().after(settings.lease().dividedBy(2)).fail()
                .chain(() -> erasures.auditDone(event.id()))
                .replaceWith(true)
                .onFailure().recoverWithUni(e -> {
                    int attempts = event.attempts() + 1;
                    Duration wait = MailWorker.retryAfter(attempts, settings.firstRetry(), settings.longestRetry());
                    LOG.warnf("event=peer_delivery_failed kind=audit peer=%s person_id=%d attempts=%d retry_in=%ds error=%s",
                            event.peer(), event.personId(), attempts, wait.toSeconds(), e.toString());
                    return erasures.auditFailed(event.id(), String.valueOf(e.getMessage()), wait).replaceWith(false);
                });
    }

    private Uni<Boolean> deliver(ErasureRepository.Claimed erasure) {
        Uni<Void> delivered = switch (erasure.kind()) {
            case "sign_out" -> peers.signOut(erasure.peer(), erasure.personId());
            default -> peers.erase(erasure.peer(), erasure.personId(), erasure.username());
        };
        return delivered
                .ifNoItem().after(settings.lease().dividedBy(2)).fail()
                .chain(() -> erasures.done(erasure.id()))
                .invoke(() -> LOG.infof("event=peer_delivered kind=%s peer=%s person_id=%d attempts=%d", erasure.kind(), erasure.peer(),
                        erasure.personId(), erasure.attempts()))
                .replaceWith(true)
                .onFailure().recoverWithUni(e -> {
                    Duration wait = MailWorker.retryAfter(erasure.attempts(), settings.firstRetry(), settings.longestRetry());
                    LOG.warnf("event=peer_delivery_failed kind=%s peer=%s person_id=%d attempts=%d retry_in=%ds error=%s", erasure.kind(), erasure.peer(),
                            erasure.personId(), erasure.attempts(), wait.toSeconds(), e.toString());
                    return erasures.failed(erasure.id(), String.valueOf(e.getMessage()), wait).replaceWith(false);
                });
    }
}
