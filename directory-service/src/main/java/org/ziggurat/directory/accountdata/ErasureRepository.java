package org.ziggurat.directory.accountdata;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What the other services are owed (V12, V13): deleted accounts' erasures, and sign-outs after a
 * password changed through the API; claimed by one replica at a time.
 */
@ApplicationScoped
public class ErasureRepository {

    private final Pool pool;

    ErasureRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * {@code kind}: erasure (a deleted account), sign_out (a password changed through the API) or
     * audit (a change for the audit stream, {@code payload} the event: V15's triggers write them).
     */
    public record Claimed(long id, long personId, String username, String peer, String kind, int attempts, String payload) {
    }

    /** Up to {@code limit} due erasures, oldest first, each held for {@code lease}. */
    public Uni<List<Claimed>> claim(int limit, Duration lease) {
        return pool.preparedQuery("UPDATE peer_delivery SET attempts = attempts + 1, "
                        + "next_attempt_at = now() + $2 * interval '1 millisecond' "
                        + "WHERE id IN (SELECT id FROM peer_delivery WHERE done_at IS NULL AND next_attempt_at <= now() "
                        + "ORDER BY next_attempt_at, id LIMIT $1 FOR UPDATE SKIP LOCKED) "
                        + "RETURNING id, person_id, username, peer, kind, attempts, payload::text AS payload")
                .execute(Tuple.of(limit, lease.toMillis()))
                .map(rows -> {
                    List<Claimed> claimed = new ArrayList<>(rows.rowCount());
                    for (Row row : rows) {
                        claimed.add(new Claimed(row.getLong("id"), row.getLong("person_id"), row.getString("username"),
                                row.getString("peer"), row.getString("kind"), row.getInteger("attempts"),
                                row.getString("payload")));
                    }
                    return claimed;
                });
    }

    /** A sign-out owed to auth-service, in the transaction {@code conn} of the password's change. */
    public static Uni<Void> signOut(io.vertx.mutiny.sqlclient.SqlClient conn, long personId, String username) {
        return conn.preparedQuery("INSERT INTO peer_delivery (person_id, username, peer, kind) VALUES ($1, $2, 'auth-service', "
                + "'sign_out')").execute(Tuple.of(personId, username)).replaceWithVoid();
    }

    /** Audit events delivered before {@code keep} ago (events-service keeps them); how many. */
    public Uni<Integer> purgeDeliveredAudit(Duration keep) {
        return pool.preparedQuery("DELETE FROM peer_delivery WHERE kind = 'audit' AND done_at < now() - $1 * interval '1 millisecond'")
                .execute(Tuple.of(keep.toMillis())).map(rows -> rows.rowCount());
    }

    public Uni<Void> done(long id) {
        return pool.preparedQuery("UPDATE peer_delivery SET done_at = now(), last_error = NULL WHERE id = $1")
                .execute(Tuple.of(id)).replaceWithVoid();
    }

    /** Not done this time: tried again after {@code retryIn}, with what went wrong kept for operators. */
    public Uni<Void> failed(long id, String error, Duration retryIn) {
        return pool.preparedQuery("UPDATE peer_delivery SET next_attempt_at = now() + $2 * interval '1 millisecond', "
                        + "last_error = $3 WHERE id = $1 AND done_at IS NULL")
                .execute(Tuple.of(id, retryIn.toMillis(), error)).replaceWithVoid();
    }
}
