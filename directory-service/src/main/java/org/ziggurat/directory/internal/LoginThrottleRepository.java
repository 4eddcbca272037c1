package org.ziggurat.directory.internal;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.directory.DirectoryConfig;
import org.ziggurat.directory.WindowCounts;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * The sign-in throttle's counts in Postgres ({@code login_throttle}, one row per key), so that
 * every replica sees the same counts: a check counted before it is made, in one transaction of
 * conditional increments; the blocks of the counts a failure filled; what a passed check gives back.
 */
@ApplicationScoped
public class LoginThrottleRepository {

    private final Pool pool;

    LoginThrottleRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * One limited count of a check: its key, at most {@code limit} within {@code window} (no more
     * counted past it: the check is refused), {@code block} for it once a failure fills it.
     */
    record Limit(String key, String scope, int limit, Duration window, Duration block) {
        static Limit of(String key, String scope, DirectoryConfig.Throttle throttle) {
            return new Limit(key, scope, throttle.limit(), throttle.window(), throttle.block());
        }

        /** A count that never refuses (the account's failures from everywhere, which slow it down). */
        static Limit unlimited(String key, String scope, DirectoryConfig.Throttle window) {
            return new Limit(key, scope, Integer.MAX_VALUE, window.window(), window.block());
        }

        boolean limited() {
            return limit != Integer.MAX_VALUE;
        }
    }

    /** The check is not admitted: seconds to wait, and why (blocked or full: "blocked"; every check: "checks"). */
    static final class Refused extends RuntimeException {
        final long seconds;
        final String reason;

        Refused(long seconds, String reason) {
            super(reason, null, false, false);
            this.seconds = Math.max(1L, seconds);
            this.reason = reason;
        }
    }

    /** A count that a failure filled, now blocked: its scope and count. */
    record Blocked(String scope, int count, int limit) {
    }

    /**
     * Counts a check before it is made, in one transaction: each limit's count one more unless it
     * is full within its window or blocked, and the checks of {@code checksKey} (successes too) one
     * more unless past {@code checks}. A refusal rolls back every count ({@link Refused}). Else the
     * counts before this check, in the order of {@code limits}. Rows are taken in the order of
     * their keys, here and in every other statement that takes several ({@link #blockFull},
     * {@link #giveBack}): two callers never wait on each other in a circle (a deadlock would abort
     * one, losing a block or answering 500).
     */
    Uni<int[]> admit(List<Limit> limits, String checksKey, DirectoryConfig.Throttle checks) {
        Integer[] inKeyOrder = java.util.stream.IntStream.range(0, limits.size()).boxed()
                .sorted(java.util.Comparator.comparing(i -> limits.get(i).key())).toArray(Integer[]::new);
        return pool.withTransaction(conn -> {
            int[] before = new int[limits.size()];
            Uni<Void> counted = Uni.createFrom().voidItem();
            for (int index : inKeyOrder) {
                counted = counted.chain(() -> reserve(conn, limits.get(index)).invoke(count -> before[index] = count - 1))
                        .replaceWithVoid();
            }
            return counted.chain(() -> WindowCounts.count(conn, checksKey, checks.window())).map(row -> {
                if (row.getInteger("failures") > checks.limit()) {
                    throw new Refused(row.getLong("seconds"), "checks");
                }
                return before;
            });
        });
    }

    /**
     * One more for the limit's key, if it is neither full within its window nor blocked: the new
     * count. Else {@link Refused}, with the seconds until the block or the window ends.
     */
    private static Uni<Integer> reserve(SqlConnection conn, Limit limit) {
        return conn.preparedQuery("""
                WITH counted AS (
                  INSERT INTO login_throttle AS t (key, failures, window_started_at) VALUES ($1, 1, now())
                  ON CONFLICT (key) DO UPDATE SET
                    failures = CASE WHEN t.window_started_at < now() - $2 * interval '1 millisecond' THEN 1 ELSE t.failures + 1 END,
                    window_started_at = CASE WHEN t.window_started_at < now() - $2 * interval '1 millisecond' THEN now()
                                             ELSE t.window_started_at END
                  WHERE (t.blocked_until IS NULL OR t.blocked_until <= now())
                    AND (t.window_started_at < now() - $2 * interval '1 millisecond' OR t.failures < $3)
                  RETURNING failures)
                SELECT (SELECT failures FROM counted) AS failures,
                  (SELECT ceil(extract(epoch FROM greatest(o.blocked_until, o.window_started_at + $2 * interval '1 millisecond')
                                                 - now()))::bigint
                     FROM login_throttle o WHERE o.key = $1) AS seconds""")
                .execute(Tuple.of(limit.key(), limit.window().toMillis(), limit.limit()))
                .map(rows -> {
                    Row row = rows.iterator().next();
                    Integer failures = row.getInteger("failures");
                    if (failures == null) {
                        Long seconds = row.getLong("seconds");
                        throw new Refused(seconds == null ? limit.window().toSeconds() : seconds, "blocked");
                    }
                    return failures;
                });
    }

    /** After a failure: each of these limits whose count is full is blocked for its block (again). */
    Uni<List<Blocked>> blockFull(List<Limit> limits) {
        return pool.preparedQuery("""
                WITH locked AS (SELECT key FROM login_throttle WHERE key = ANY($1) ORDER BY key FOR UPDATE)
                UPDATE login_throttle t SET blocked_until = now() + b.block_ms * interval '1 millisecond'
                FROM unnest($1::text[], $2::int[], $3::bigint[], $4::text[]) AS b(key, lim, block_ms, scope)
                WHERE t.key = b.key AND t.key IN (SELECT key FROM locked) AND t.failures >= b.lim
                RETURNING b.scope, t.failures, b.lim""")
                .execute(Tuple.of(limits.stream().map(Limit::key).toArray(String[]::new),
                        limits.stream().map(Limit::limit).toArray(Integer[]::new),
                        limits.stream().map(l -> l.block().toMillis()).toArray(Long[]::new),
                        limits.stream().map(Limit::scope).toArray(String[]::new)))
                .map(rows -> {
                    List<Blocked> blocked = new ArrayList<>();
                    rows.forEach(row -> blocked.add(new Blocked(row.getString("scope"), row.getInteger("failures"),
                            row.getInteger("lim"))));
                    return blocked;
                });
    }

    /** The key's count (and block) gone. */
    Uni<Void> clear(String key) {
        return pool.preparedQuery("DELETE FROM login_throttle WHERE key = $1").execute(Tuple.of(key)).replaceWithVoid();
    }

    /** One less for each key (a check that was counted but not made, or that passed). */
    Uni<Void> giveBack(List<String> keys) {
        return pool.preparedQuery("WITH locked AS (SELECT key FROM login_throttle WHERE key = ANY($1) ORDER BY key FOR UPDATE) "
                        + "UPDATE login_throttle SET failures = greatest(failures - 1, 0) WHERE key IN (SELECT key FROM locked)")
                .execute(Tuple.of(keys.toArray(String[]::new))).replaceWithVoid();
    }

    /** One more of something limited to {@code limit} within {@code window}: seconds until the window ends past it, else 0. */
    Uni<Long> admit(String key, int limit, Duration window) {
        return WindowCounts.admit(pool, key, limit, window);
    }

    /** Unused rows (window over, no block in force) go. */
    Uni<Integer> purge(OffsetDateTime before) {
        return pool.preparedQuery("DELETE FROM login_throttle WHERE window_started_at < $1 "
                + "AND (blocked_until IS NULL OR blocked_until < now())")
                .execute(Tuple.of(before)).map(rows -> rows.rowCount());
    }
}
