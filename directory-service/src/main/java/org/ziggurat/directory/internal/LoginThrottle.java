package org.ziggurat.directory.internal;

import io.vertx.mutiny.sqlclient.Row;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.ziggurat.directory.DirectoryConfig;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Counts failed password checks per account and per client address in Postgres (so every
 * replica sees the same counts) and blocks a key for a while once it passes its limit. An
 * existing account is counted by its id, so its username and its email share one count; a login
 * that names no account is counted as typed (lower case), and costs the same work.
 */
@ApplicationScoped
public class LoginThrottle {

    @Inject
    Pool pool;

    @Inject
    DirectoryConfig config;

    /** The account's key: its id when the login names one (null: it names none), else the login as typed. */
    static String accountKey(Long personId, String login) {
        return personId != null ? "person:" + personId : "account:" + login.toLowerCase(Locale.ROOT);
    }

    static String addressKey(String address) {
        return "address:" + address;
    }

    /** Seconds until the longest block among these keys ends; 0 when none is blocked. */
    public Uni<Long> blockedFor(String account, String address) {
        List<String> keys = new ArrayList<>(List.of(account));
        if (address != null) {
            keys.add(addressKey(address));
        }
        return pool.preparedQuery("SELECT ceil(extract(epoch FROM max(blocked_until) - now()))::bigint AS seconds "
                + "FROM login_throttle WHERE key = ANY($1) AND blocked_until > now()")
                .execute(Tuple.of(keys.toArray(String[]::new)))
                .map(rows -> {
                    Long seconds = rows.iterator().next().getLong("seconds");
                    return seconds == null ? 0L : Math.max(1L, seconds);
                });
    }

    public Uni<Void> recordFailure(String account, String address) {
        Uni<Void> failed = fail(account, config.accountThrottle());
        return address == null ? failed : failed.chain(() -> fail(addressKey(address), config.addressThrottle()));
    }

    /**
     * Counts one more password check of the account, successful or not, in one statement (so
     * concurrent checks are counted exactly); seconds until the window ends when this one is past
     * the limit, else 0.
     */
    public Uni<Long> admitCheck(String account) {
        DirectoryConfig.Throttle checks = config.accountChecks();
        return count("checks:" + account, checks.window()).map(row -> row.getInteger("failures") > checks.limit()
                ? Math.max(1L, row.getLong("seconds")) : 0L);
    }

    /** A successful check clears the account's count (not the address's: one success hides no spray). */
    public Uni<Void> recordSuccess(String account) {
        return pool.preparedQuery("DELETE FROM login_throttle WHERE key = $1").execute(Tuple.of(account))
                .replaceWithVoid();
    }

    private Uni<Void> fail(String key, DirectoryConfig.Throttle throttle) {
        return count(key, throttle.window())
                .chain(row -> row.getInteger("failures") >= throttle.limit()
                        ? pool.preparedQuery("UPDATE login_throttle SET blocked_until = now() + $2 * interval '1 millisecond' WHERE key = $1")
                                .execute(Tuple.of(key, interval(throttle.block()))).replaceWithVoid()
                        : Uni.createFrom().voidItem());
    }

    /**
     * One more for the key, in one statement: a new window when the old one ended, else one more
     * in it. The count, and the seconds left in its window.
     */
    private Uni<Row> count(String key, Duration window) {
        return pool.preparedQuery("""
                INSERT INTO login_throttle AS t (key, failures, window_started_at) VALUES ($1, 1, now())
                ON CONFLICT (key) DO UPDATE SET
                  failures = CASE WHEN t.window_started_at < now() - $2 * interval '1 millisecond' THEN 1 ELSE t.failures + 1 END,
                  window_started_at = CASE WHEN t.window_started_at < now() - $2 * interval '1 millisecond' THEN now()
                                           ELSE t.window_started_at END
                RETURNING failures,
                  ceil(extract(epoch FROM window_started_at + $2 * interval '1 millisecond' - now()))::bigint AS seconds""")
                .execute(Tuple.of(key, interval(window))).map(rows -> rows.iterator().next());
    }

    private static long interval(Duration duration) {
        return duration.toMillis();
    }

    /** Unused rows (window over, no block in force) can go; called by the purge. */
    public Uni<Integer> purge(OffsetDateTime before) {
        return pool.preparedQuery("DELETE FROM login_throttle WHERE window_started_at < $1 "
                + "AND (blocked_until IS NULL OR blocked_until < now())")
                .execute(Tuple.of(before)).map(rows -> rows.rowCount());
    }
}
