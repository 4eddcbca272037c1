package org.ziggurat.auth.tokens;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * Device authorizations (RFC 8628) by the keyed hashes of their codes. Every change is one
 * statement on one row, so that replicas polling and approving at once agree on what happened.
 */
@ApplicationScoped
public class DeviceAuthorizationRepository {

    private final Pool pool;

    DeviceAuthorizationRepository(Pool pool) {
        this.pool = pool;
    }

    public record NewRequest(byte[] deviceCodeHash, byte[] userCodeHash, long applicationId, List<String> scopes,
            int intervalSeconds, OffsetDateTime expiresAt) {
    }

    /** A request as the verification page shows it. */
    public record Pending(long applicationId, List<String> scopes) {
    }

    /**
     * What one poll found: the request's state at the time of the poll, whether it came before
     * the interval had passed (which widened the interval), and what an approval carries.
     */
    public record Poll(String status, boolean tooSoon, boolean expired, boolean used,
            Long personId, String username, Instant authTime, List<String> scopes, SignIn signIn) {
    }

    /** What an insert did: stored, the user code taken by a live request (draw again), or the client's cap reached. */
    public enum Inserted { STORED, USER_CODE_TAKEN, CLIENT_FULL }

    /**
     * Stores the request unless the client has {@code livePerClient} pending already. The count and
     * the insert hold the client's advisory lock, so that replicas' concurrent inserts cannot pass
     * the cap together.
     */
    public Uni<Inserted> insert(NewRequest request, int livePerClient) {
        return pool.withTransaction(conn -> conn.preparedQuery("SELECT pg_advisory_xact_lock(hashtextextended('device_authorization:' || $1::bigint, 0))")
                .execute(Tuple.of(request.applicationId()))
                .chain(() -> conn.preparedQuery("SELECT count(*) < $2 AS room FROM device_authorization "
                                + "WHERE application_id = $1 AND status = 'pending' AND expires_at > now()")
                        .execute(Tuple.of(request.applicationId(), livePerClient)))
                .chain(rows -> !rows.iterator().next().getBoolean("room") ? Uni.createFrom().item(Inserted.CLIENT_FULL)
                        : conn.preparedQuery("INSERT INTO device_authorization (device_code_hash, user_code_hash, "
                                        + "application_id, scopes, interval_seconds, expires_at) VALUES ($1, $2, $3, $4, $5, $6) "
                                        + "ON CONFLICT (user_code_hash) DO NOTHING")
                                .execute(Tuple.tuple().addValue(Buffer.buffer(request.deviceCodeHash()))
                                        .addValue(Buffer.buffer(request.userCodeHash())).addValue(request.applicationId())
                                        .addValue(request.scopes().toArray(String[]::new)).addValue(request.intervalSeconds())
                                        .addValue(request.expiresAt()))
                                .map(inserted -> inserted.rowCount() == 1 ? Inserted.STORED : Inserted.USER_CODE_TAKEN)));
    }

    /**
     * A poll of the token endpoint: records it, and when it came before the interval had passed
     * since the last, adds 5 s to the interval (RFC 8628 §3.5). Null for a device code that is
     * unknown or another client's, whose poll then changes nothing.
     */
    public Uni<Poll> poll(byte[] deviceCodeHash, long applicationId) {
        return pool.preparedQuery("""
                WITH before AS (SELECT device_code_hash, last_polled_at, interval_seconds FROM device_authorization
                                WHERE device_code_hash = $1 AND application_id = $2 FOR UPDATE)
                UPDATE device_authorization d SET last_polled_at = now(),
                       interval_seconds = CASE WHEN b.last_polled_at > now() - make_interval(secs => b.interval_seconds)
                                               THEN b.interval_seconds + 5 ELSE b.interval_seconds END
                FROM before b WHERE d.device_code_hash = b.device_code_hash
                RETURNING d.status, d.person_id, d.username, d.auth_time, d.scopes, d.session_hash,
                          (SELECT s.expires_at FROM login_session s WHERE s.session_hash = d.session_hash
                           AND s.expires_at > now()) AS session_expires_at,
                          (SELECT s.amr FROM login_session s WHERE s.session_hash = d.session_hash) AS session_amr,
                          coalesce(b.last_polled_at > now() - make_interval(secs => b.interval_seconds), false) AS too_soon,
                          d.expires_at <= now() AS expired, d.used_at IS NOT NULL AS used""")
                .execute(Tuple.of(Buffer.buffer(deviceCodeHash), applicationId))
                .map(rows -> {
                    if (rows.rowCount() == 0) {
                        return null;
                    }
                    Row r = rows.iterator().next();
                    return new Poll(r.getString("status"), r.getBoolean("too_soon"),
                            r.getBoolean("expired"), r.getBoolean("used"), r.getLong("person_id"), r.getString("username"),
                            TokenRow.instant(r, "auth_time"), List.of(r.getArrayOfStrings("scopes")), SignIn.of(r));
                });
    }

    /** Marks an approved request's tokens issued, once: false when another poll issued them first. */
    public Uni<Boolean> markUsed(SqlClient client, byte[] deviceCodeHash) {
        return client.preparedQuery("UPDATE device_authorization SET used_at = now() WHERE device_code_hash = $1 "
                        + "AND status = 'approved' AND used_at IS NULL AND expires_at > now()")
                .execute(Tuple.of(Buffer.buffer(deviceCodeHash))).map(rows -> rows.rowCount() == 1);
    }

    /** The live, pending request of a user code; null when there is none. */
    public Uni<Pending> pending(byte[] userCodeHash) {
        return pool.preparedQuery("SELECT application_id, scopes FROM device_authorization WHERE user_code_hash = $1 "
                        + "AND status = 'pending' AND expires_at > now()")
                .execute(Tuple.of(Buffer.buffer(userCodeHash)))
                .map(rows -> rows.rowCount() == 0 ? null : new Pending(rows.iterator().next().getLong("application_id"),
                        List.of(rows.iterator().next().getArrayOfStrings("scopes"))));
    }

    /**
     * The person's answer to a pending request, in the login session {@code sessionHash}; false
     * when it was no longer pending (answered, expired).
     */
    public Uni<Boolean> decide(byte[] userCodeHash, boolean approved, long personId, String username,
            Instant authTime, byte[] sessionHash) {
        return pool.preparedQuery("UPDATE device_authorization SET status = $2, person_id = $3, username = $4, auth_time = $5, "
                        + "session_hash = $6 WHERE user_code_hash = $1 AND status = 'pending' AND expires_at > now()")
                .execute(Tuple.tuple().addValue(Buffer.buffer(userCodeHash)).addValue(approved ? "approved" : "denied")
                        .addValue(personId).addValue(username).addValue(TokenRow.utcSeconds(authTime))
                        .addValue(Buffer.buffer(sessionHash)))
                .map(rows -> rows.rowCount() == 1);
    }

    /** Requests a day past their expiry go (TokenPurge). */
    public Uni<Integer> purgeExpired() {
        return pool.preparedQuery("DELETE FROM device_authorization WHERE expires_at < now() - interval '1 day'").execute()
                .map(rows -> rows.rowCount());
    }
}
