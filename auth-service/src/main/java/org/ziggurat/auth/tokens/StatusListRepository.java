package org.ziggurat.auth.tokens;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The Token Status List's tables (migration V38): the sequence its indices come from, and the
 * INVALID entries, which triggers on the token table keep whatever statement revoked or deleted a
 * token.
 */
@ApplicationScoped
public class StatusListRepository {

    private final Pool pool;

    StatusListRepository(Pool pool) {
        this.pool = pool;
    }

    /** The first index of a block of {@link StatusIndices#BLOCK} that no other caller, on any replica, gets. */
    public Uni<Long> nextBlock() {
        return pool.query("SELECT nextval('token_status_index') AS n").execute()
                .map(rows -> rows.iterator().next().getLong("n"));
    }

    /** How many lists have entries handed out: list {@code k} exists when {@code k} is below it. */
    public Uni<Integer> lists() {
        return pool.query("SELECT CASE WHEN is_called THEN last_value / " + StatusLists.SIZE + " + 1 ELSE 0 END AS lists "
                        + "FROM token_status_index").execute()
                .map(rows -> rows.iterator().next().getLong("lists").intValue());
    }

    /**
     * The INVALID entries of list {@code list}, in one scan of the primary key's range; those of
     * tokens expired meanwhile too, until the purge (a relying party checks {@code exp} first).
     */
    public Uni<int[]> invalid(int list) {
        return pool.preparedQuery("SELECT idx FROM token_status_invalid WHERE list = $1").execute(Tuple.of(list))
                .map(rows -> {
                    int[] indices = new int[rows.rowCount()];
                    int i = 0;
                    for (Row row : rows) {
                        indices[i++] = row.getInteger(0);
                    }
                    return indices;
                });
    }

    /**
     * Entries of tokens that expired: a relying party checks {@code exp} before the status. Five
     * minutes late, for one that allows its clock that much skew. How many.
     */
    public Uni<Integer> purgeExpired() {
        return pool.query("DELETE FROM token_status_invalid WHERE expires_at < now() - interval '5 minutes'").execute()
                .map(rows -> rows.rowCount());
    }
}
