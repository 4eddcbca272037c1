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

    /** Up to {@code limit} due erasures and sign-outs, oldest first, each held for {@code lease} (audit events: {@link #claimAudit}). */
    public Uni<List<Claimed>> claim(int limit, Duration lease) {
        return pool.preparedQuery("UPDATE peer_delivery SET attempts = attempts + 1, "
                        + "next_attempt_at = now() + $2 * interval '1 millisecond' "
                        + "WHERE id IN (SELECT id FROM peer_delivery WHERE done_at IS NULL AND next_attempt_at <= now() "
                        + "AND kind <> 'audit' ORDER BY next_attempt_at, id LIMIT $1 FOR UPDATE SKIP LOCKED) "
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

    /** The most characters of an event's data events-service takes (its AuditService.MAX_DATA_CHARS). */
    static final int MAX_AUDIT_DATA_CHARS = 65536;

    /**
     * Numbers the audit rows no claim has seen yet, in the order of their ids: after every number
     * given before (the lock), so a row that commits after a later one was numbered comes after it.
     * Data too large for events-service would stop the lane for good: it is replaced by its size.
     */
    private static final String NUMBER_AUDIT = "WITH n AS MATERIALIZED (SELECT id, nextval('audit_source_id') AS seq FROM ("
            + "SELECT id FROM peer_delivery WHERE kind = 'audit' AND seq IS NULL AND done_at IS NULL ORDER BY id LIMIT 1000) u) "
            + "UPDATE peer_delivery d SET seq = n.seq, payload = jsonb_set(CASE WHEN length((d.payload->'data')::text) > "
            + MAX_AUDIT_DATA_CHARS + " THEN jsonb_set(d.payload, '{data}', jsonb_build_object('omitted', 'larger than the "
            + "audit stream takes', 'characters', length((d.payload->'data')::text))) ELSE d.payload END, '{source_id}', "
            + "to_jsonb(n.seq)) FROM n WHERE d.id = n.id";

    /** The lowest audit numbers not delivered, when the lowest is due (not waiting to be tried again, nor held by a lease). */
    private static final String CLAIM_AUDIT = "UPDATE peer_delivery SET next_attempt_at = now() + $2 * interval '1 millisecond' "
            + "WHERE id IN (SELECT id FROM peer_delivery WHERE kind = 'audit' AND done_at IS NULL AND seq IS NOT NULL "
            + "ORDER BY seq LIMIT $1) AND (SELECT next_attempt_at <= now() FROM peer_delivery WHERE kind = 'audit' "
            + "AND done_at IS NULL AND seq IS NOT NULL ORDER BY seq LIMIT 1) "
            + "RETURNING id, person_id, username, peer, kind, attempts, payload::text AS payload, seq";

    /**
     * The audit stream's lane (V17): up to {@code limit} events, lowest number (their source_id)
     * first, each held for {@code lease}; none while another replica claims, or while the lowest
     * waits to be tried again or is held. {@code attempts}: how often each was sent before.
     */
    public Uni<List<Claimed>> claimAudit(int limit, Duration lease) {
        return pool.withTransaction(conn -> conn
                .query("SELECT pg_try_advisory_xact_lock(hashtextextended('ziggurat.directory.audit_lane', 0)) AS mine")
                .execute()
                .chain(lock -> !lock.iterator().next().getBoolean("mine") ? Uni.createFrom().item(List.<Claimed>of())
                        : conn.query(NUMBER_AUDIT).execute()
                                .chain(() -> conn.preparedQuery(CLAIM_AUDIT).execute(Tuple.of(limit, lease.toMillis())))
                                .map(rows -> {
                                    List<Row> sorted = new ArrayList<>(rows.rowCount());
                                    rows.forEach(sorted::add);
                                    sorted.sort(java.util.Comparator.comparingLong(row -> row.getLong("seq")));
                                    List<Claimed> claimed = new ArrayList<>(sorted.size());
                                    for (Row row : sorted) {
                                        claimed.add(new Claimed(row.getLong("id"), row.getLong("person_id"),
                                                row.getString("username"), row.getString("peer"), row.getString("kind"),
                                                row.getInteger("attempts"), row.getString("payload")));
                                    }
                                    return claimed;
                                })));
    }

    /** An audit event recorded: the lane moves on. */
    public Uni<Void> auditDone(long id) {
        return pool.preparedQuery("UPDATE peer_delivery SET done_at = now(), attempts = attempts + 1, last_error = NULL "
                + "WHERE id = $1").execute(Tuple.of(id)).replaceWithVoid();
    }

    /** An audit event not recorded this time: tried again after {@code retryIn}, before any later one. */
    public Uni<Void> auditFailed(long id, String error, Duration retryIn) {
        return pool.preparedQuery("UPDATE peer_delivery SET attempts = attempts + 1, "
                        + "next_attempt_at = now() + $2 * interval '1 millisecond', last_error = $3 WHERE id = $1 AND done_at IS NULL")
                .execute(Tuple.of(id, retryIn.toMillis(), error)).replaceWithVoid();
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
