package org.ziggurat.directory.accountdata;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The erasures deleted accounts are owed by the other services (V12), claimed by one replica at a time. */
@ApplicationScoped
public class ErasureRepository {

    private final Pool pool;

    ErasureRepository(Pool pool) {
        this.pool = pool;
    }

    public record Claimed(long id, long personId, String username, String peer, int attempts) {
    }

    /** Up to {@code limit} due erasures, oldest first, each held for {@code lease}. */
    public Uni<List<Claimed>> claim(int limit, Duration lease) {
        return pool.preparedQuery("UPDATE person_erasure SET attempts = attempts + 1, "
                        + "next_attempt_at = now() + $2 * interval '1 millisecond' "
                        + "WHERE id IN (SELECT id FROM person_erasure WHERE done_at IS NULL AND next_attempt_at <= now() "
                        + "ORDER BY next_attempt_at, id LIMIT $1 FOR UPDATE SKIP LOCKED) "
                        + "RETURNING id, person_id, username, peer, attempts")
                .execute(Tuple.of(limit, lease.toMillis()))
                .map(rows -> {
                    List<Claimed> claimed = new ArrayList<>(rows.rowCount());
                    for (Row row : rows) {
                        claimed.add(new Claimed(row.getLong("id"), row.getLong("person_id"), row.getString("username"),
                                row.getString("peer"), row.getInteger("attempts")));
                    }
                    return claimed;
                });
    }

    public Uni<Void> done(long id) {
        return pool.preparedQuery("UPDATE person_erasure SET done_at = now(), last_error = NULL WHERE id = $1")
                .execute(Tuple.of(id)).replaceWithVoid();
    }

    /** Not done this time: tried again after {@code retryIn}, with what went wrong kept for operators. */
    public Uni<Void> failed(long id, String error, Duration retryIn) {
        return pool.preparedQuery("UPDATE person_erasure SET next_attempt_at = now() + $2 * interval '1 millisecond', "
                        + "last_error = $3 WHERE id = $1 AND done_at IS NULL")
                .execute(Tuple.of(id, retryIn.toMillis(), error)).replaceWithVoid();
    }
}
