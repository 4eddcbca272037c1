package org.ziggurat.auth.audit;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The audit outbox (V25, V30): written by triggers; one lane for every replica. A claim numbers the
 * rows seen for the first time (the event's source_id, in the order they became visible) and takes
 * the lowest numbers not yet delivered, under a lock only one replica holds at a time.
 */
@ApplicationScoped
public class AuditOutboxRepository {

    /** {@code attempts}: how often it was sent before. */
    public record Claimed(long id, long seq, String payload, int attempts) {
    }

    /** The most characters of an event's data events-service takes (AuditService.MAX_DATA_CHARS). */
    static final int MAX_DATA_CHARS = 65536;

    /**
     * Numbers what no claim has seen yet, in the order of its ids: after every number given before
     * (the lock), so a row that commits after a later one was numbered comes after it. Data too large
     * for events-service (written by hand: the service's own fields are bounded well below) would
     * stop the lane for good: it is replaced by its size.
     */
    private static final String NUMBER = "WITH n AS MATERIALIZED (SELECT id, nextval('audit_source_id') AS seq FROM ("
            + "SELECT id FROM audit_outbox WHERE seq IS NULL AND done_at IS NULL ORDER BY id LIMIT 1000) u) "
            + "UPDATE audit_outbox o SET seq = n.seq, payload = jsonb_set(CASE WHEN length((o.payload->'data')::text) > "
            + MAX_DATA_CHARS + " THEN jsonb_set(o.payload, '{data}', jsonb_build_object('omitted', 'larger than the audit "
            + "stream takes', 'characters', length((o.payload->'data')::text))) ELSE o.payload END, '{source_id}', "
            + "to_jsonb(n.seq)) FROM n WHERE o.id = n.id";

    /** The lowest numbers not delivered, when the lowest is due (not waiting to be tried again, nor held by a lease). */
    private static final String CLAIM = "UPDATE audit_outbox SET next_attempt_at = now() + $2 * interval '1 millisecond' "
            + "WHERE id IN (SELECT id FROM audit_outbox WHERE done_at IS NULL AND seq IS NOT NULL ORDER BY seq LIMIT $1) "
            + "AND (SELECT next_attempt_at <= now() FROM audit_outbox WHERE done_at IS NULL AND seq IS NOT NULL "
            + "ORDER BY seq LIMIT 1) RETURNING id, seq, payload::text AS payload, attempts";

    private final Pool pool;

    AuditOutboxRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * Up to {@code limit} events, lowest number first, each held for {@code lease}: none while
     * another replica claims, or while the lowest waits to be tried again or is held.
     */
    public Uni<List<Claimed>> claim(int limit, Duration lease) {
        return pool.withTransaction(conn -> conn
                .query("SELECT pg_try_advisory_xact_lock(hashtextextended('ziggurat.auth.audit_outbox', 0)) AS mine").execute()
                .chain(lock -> !lock.iterator().next().getBoolean("mine") ? Uni.createFrom().item(List.<Claimed>of())
                        : conn.query(NUMBER).execute()
                                .chain(() -> conn.preparedQuery(CLAIM).execute(Tuple.of(limit, lease.toMillis())))
                                .map(rows -> {
                                    List<Claimed> claimed = new ArrayList<>(rows.rowCount());
                                    for (Row row : rows) {
                                        claimed.add(new Claimed(row.getLong("id"), row.getLong("seq"), row.getString("payload"),
                                                row.getInteger("attempts")));
                                    }
                                    claimed.sort(Comparator.comparingLong(Claimed::seq));
                                    return claimed;
                                })));
    }

    public Uni<Void> done(long id) {
        return pool.preparedQuery("UPDATE audit_outbox SET done_at = now(), attempts = attempts + 1, last_error = NULL "
                + "WHERE id = $1").execute(Tuple.of(id)).replaceWithVoid();
    }

    /** Tried again after {@code retryIn}, before any later number. */
    public Uni<Void> failed(long id, String error, Duration retryIn) {
        return pool.preparedQuery("UPDATE audit_outbox SET attempts = attempts + 1, "
                        + "next_attempt_at = now() + $2 * interval '1 millisecond', last_error = $3 WHERE id = $1 AND done_at IS NULL")
                .execute(Tuple.of(id, retryIn.toMillis(), error)).replaceWithVoid();
    }

    /** Delivered events older than {@code keep} (events-service keeps them); how many. */
    public Uni<Integer> purgeDone(Duration keep) {
        return pool.preparedQuery("DELETE FROM audit_outbox WHERE done_at < now() - $1 * interval '1 millisecond'")
                .execute(Tuple.of(keep.toMillis())).map(rows -> rows.rowCount());
    }
}
