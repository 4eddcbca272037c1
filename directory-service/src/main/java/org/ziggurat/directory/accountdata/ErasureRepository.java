package org.ziggurat.directory.accountdata;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import org.ziggurat.platform.rest.queue.AuditLane;
import org.ziggurat.platform.rest.queue.QueueTable;

/**
 * What the other services are owed (V12, V13, V15, V17): the peers' outbox, {@code peer_delivery}.
 * Two queues share it: deleted accounts' erasures and sign-outs after a password changed through the
 * API, claimed side by side by every replica; and the audit stream's events, one lane in the order
 * the queue first sees them. Its triggers (V19) wake each queue's workers as rows join it.
 */
public final class ErasureRepository {

    /** Erasures and sign-outs: owed until their peer answered that it is done; kept after that. */
    static final QueueTable DELIVERIES = QueueTable.of("directory_peers", "peer_delivery",
            "q.done_at IS NULL AND q.kind <> 'audit'").done("done_at = now(), last_error = NULL").build();

    /** The audit stream's events (written by V15's triggers); delivered ones go after a while (events-service keeps them). */
    static final QueueTable AUDIT = AuditLane.of("directory_audit", "peer_delivery", "q.kind = 'audit' AND q.done_at IS NULL",
            "ziggurat.directory.audit_lane").purgeable("q.kind = 'audit' AND q.done_at < {cutoff}").build();

    private ErasureRepository() {
    }

    /** A sign-out owed to auth-service, in the transaction {@code conn} of the password's change. */
    public static Uni<Void> signOut(SqlClient conn, long personId, String username) {
        return conn.preparedQuery("INSERT INTO peer_delivery (person_id, username, peer, kind) VALUES ($1, $2, 'auth-service', "
                + "'sign_out')").execute(Tuple.of(personId, username)).replaceWithVoid();
    }
}
