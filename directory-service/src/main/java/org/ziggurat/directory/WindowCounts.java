package org.ziggurat.directory;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;

import java.time.Duration;

/**
 * Counts in fixed windows, in PostgreSQL's {@code login_throttle} table (so every replica sees the
 * same counts): one more for a key, in one statement, so that concurrent requests are counted
 * exactly, and in the caller's transaction when it passes one (a refusal then rolls the count back
 * with everything else).
 */
public final class WindowCounts {

    private WindowCounts() {
    }

    /**
     * One more for the key: a new window when the old one ended, else one more in it. The row's
     * {@code failures} (the count) and {@code seconds} (left in its window).
     */
    public static Uni<Row> count(SqlClient sql, String key, Duration window) {
        return sql.preparedQuery("""
                INSERT INTO login_throttle AS t (key, failures, window_started_at) VALUES ($1, 1, now())
                ON CONFLICT (key) DO UPDATE SET
                  failures = CASE WHEN t.window_started_at < now() - $2 * interval '1 millisecond' THEN 1 ELSE t.failures + 1 END,
                  window_started_at = CASE WHEN t.window_started_at < now() - $2 * interval '1 millisecond' THEN now()
                                           ELSE t.window_started_at END
                RETURNING failures,
                  ceil(extract(epoch FROM window_started_at + $2 * interval '1 millisecond' - now()))::bigint AS seconds""")
                .execute(Tuple.of(key, window.toMillis())).map(rows -> rows.iterator().next());
    }

    /** One more of something limited to {@code limit} within {@code window}: seconds until the window ends when this one is past it, else 0. */
    public static Uni<Long> admit(SqlClient sql, String key, int limit, Duration window) {
        return count(sql, key, window).map(row -> row.getInteger("failures") > limit ? Math.max(1L, row.getLong("seconds")) : 0L);
    }
}
