package org.ziggurat.auth.tokens;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;

/** Pushed authorization requests (RFC 9126) by the keyed hash of their request_uri. */
@ApplicationScoped
public class PushedRequestRepository {

    private final Pool pool;

    PushedRequestRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * Stores the pushed request; false when the client has {@code livePerClient} live ones already
     * (counted under the client's advisory lock, so replicas cannot pass the cap together).
     */
    public Uni<Boolean> insert(byte[] hash, long applicationId, Map<String, String> params, Duration lifetime, int livePerClient) {
        return pool.withTransaction(conn -> conn.preparedQuery("SELECT pg_advisory_xact_lock(hashtextextended('pushed_request:' || $1::bigint, 0))")
                .execute(Tuple.of(applicationId))
                .chain(() -> conn.preparedQuery("SELECT count(*) < $2 AS room FROM pushed_authorization_request "
                                + "WHERE application_id = $1 AND used_at IS NULL AND expires_at > now()")
                        .execute(Tuple.of(applicationId, livePerClient)))
                .chain(rows -> !rows.iterator().next().getBoolean("room") ? Uni.createFrom().item(false)
                        : conn.preparedQuery("INSERT INTO pushed_authorization_request (request_uri_hash, application_id, "
                                        + "params, expires_at) VALUES ($1, $2, $3, $4)")
                                .execute(Tuple.of(Buffer.buffer(hash), applicationId, new JsonObject(new LinkedHashMap<>(params)),
                                        OffsetDateTime.now(ZoneOffset.UTC).plus(lifetime)))
                                .replaceWith(true)));
    }

    /**
     * The parameters of a live, unused pushed request of this application; null otherwise. The
     * first time the browser opens it, it stays good for {@code flowLifetime} (sign-in and consent).
     */
    public Uni<Opened> open(byte[] hash, long applicationId, Duration flowLifetime) {
        return pool.preparedQuery("UPDATE pushed_authorization_request SET opened_at = coalesce(opened_at, now()), "
                        + "expires_at = CASE WHEN opened_at IS NULL THEN $3 ELSE expires_at END "
                        + "WHERE request_uri_hash = $1 AND application_id = $2 AND used_at IS NULL AND expires_at > now() "
                        + "RETURNING params, created_at")
                .execute(Tuple.of(Buffer.buffer(hash), applicationId, OffsetDateTime.now(ZoneOffset.UTC).plus(flowLifetime)))
                .map(rows -> {
                    if (rows.rowCount() == 0) {
                        return null;
                    }
                    Map<String, String> params = new LinkedHashMap<>();
                    var row = rows.iterator().next();
                    row.getJsonObject("params").forEach(e -> params.put(e.getKey(), String.valueOf(e.getValue())));
                    return new Opened(params, row.getOffsetDateTime("created_at").toInstant());
                });
    }

    /** A pushed request's parameters, and when it was pushed. */
    public record Opened(Map<String, String> params, java.time.Instant pushedAt) {
    }

    /** Uses a pushed request for a code, once: false when it was used (or expired) before. */
    public Uni<Boolean> use(byte[] hash) {
        return pool.preparedQuery("UPDATE pushed_authorization_request SET used_at = now() WHERE request_uri_hash = $1 "
                        + "AND used_at IS NULL AND expires_at > now()")
                .execute(Tuple.of(Buffer.buffer(hash))).map(rows -> rows.rowCount() == 1);
    }

    public Uni<Integer> purgeExpired() {
        return pool.preparedQuery("DELETE FROM pushed_authorization_request WHERE expires_at < now() - interval '1 day'")
                .execute().map(rows -> rows.rowCount());
    }
}
