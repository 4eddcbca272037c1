package org.ziggurat.auth.audit;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The audit outbox (V25): written by triggers; claimed by one replica at a time, with a lease. */
@ApplicationScoped
public class AuditOutboxRepository {

    public record Claimed(long id, String payload, int attempts) {
    }

    private final Pool pool;

    AuditOutboxRepository(Pool pool) {
        this.pool = pool;
    }

    /** Up to {@code limit} due events, oldest first, each held for {@code lease}. */
    public Uni<List<Claimed>> claim(int limit, Duration lease) {
        return pool.preparedQuery("UPDATE audit_outbox SET attempts = attempts + 1, "
                        + "next_attempt_at = now() + $2 * interval '1 millisecond' "
                        + "WHERE id IN (SELECT id FROM audit_outbox WHERE done_at IS NULL AND next_attempt_at <= now() "
                        + "ORDER BY next_attempt_at, id LIMIT $1 FOR UPDATE SKIP LOCKED) "
                        + "RETURNING id, payload::text AS payload, attempts")
                .execute(Tuple.of(limit, lease.toMillis()))
                .map(rows -> {
                    List<Claimed> claimed = new ArrayList<>(rows.rowCount());
                    for (Row row : rows) {
                        claimed.add(new Claimed(row.getLong("id"), row.getString("payload"), row.getInteger("attempts")));
                    }
                    claimed.sort(java.util.Comparator.comparingLong(Claimed::id));
                    return claimed;
                });
    }

    public Uni<Void> done(long id) {
        return pool.preparedQuery("UPDATE audit_outbox SET done_at = now(), last_error = NULL WHERE id = $1")
                .execute(Tuple.of(id)).replaceWithVoid();
    }

    public Uni<Void> failed(long id, String error, Duration retryIn) {
        return pool.preparedQuery("UPDATE audit_outbox SET next_attempt_at = now() + $2 * interval '1 millisecond', "
                        + "last_error = $3 WHERE id = $1 AND done_at IS NULL")
                .execute(Tuple.of(id, retryIn.toMillis(), error)).replaceWithVoid();
    }

    /** Delivered events older than {@code keep} (events-service keeps them); how many. */
    public Uni<Integer> purgeDone(Duration keep) {
        return pool.preparedQuery("DELETE FROM audit_outbox WHERE done_at < now() - $1 * interval '1 millisecond'")
                .execute(Tuple.of(keep.toMillis())).map(rows -> rows.rowCount());
    }
}
