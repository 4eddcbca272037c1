package org.ziggurat.directory.internal;

import io.vertx.mutiny.sqlclient.Row;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import io.micrometer.core.instrument.MeterRegistry;
import org.jboss.logging.Logger;
import org.ziggurat.directory.DirectoryConfig;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.function.Supplier;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Counts failed password checks in Postgres (so every replica sees the same counts) and refuses
 * a caller for a while once it passes its limit: per account and address together, and per
 * address. Never an account as a whole, whoever asks: ten wrong passwords from anywhere would
 * then lock its owner out, again and again. Instead every failure of the account, from any
 * address, slows its next checks down (progressively, up to a bound), which costs a spread-out
 * guesser far more than its owner. An existing account is counted by its id, so its username
 * and its email share one count; a login that names no account is counted as typed (lower case),
 * and costs the same work. Every block and slow-down is logged and counted (metrics), so that an
 * operator sees an attack.
 */
@ApplicationScoped
public class LoginThrottle {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.directory.security");

    private final Pool pool;
    private final DirectoryConfig config;
    private final MeterRegistry metrics;

    LoginThrottle(Pool pool, DirectoryConfig config, MeterRegistry metrics) {
        this.pool = pool;
        this.config = config;
        this.metrics = metrics;
    }

    /** A guarded check's answer: the check's result, or (null) how many seconds the caller must wait. */
    public record Guarded<T>(T result, long retryAfter) {
    }

    /**
     * One check of an account from an address under the throttle (passwords, second factors):
     * refused while blocked or past the checks' limit; else, after the account's slow-down, the
     * check, whose answer {@code passed} says was right (a success) or wrong (a failure, counted).
     * The check runs on the caller's Vert.x context (a reactive session must), not on the timer's thread.
     */
    public <T> Uni<Guarded<T>> guard(String account, String address, Supplier<Uni<T>> check, Predicate<T> passed) {
        return blockedFor(account, address)
                .chain(seconds -> seconds > 0 ? Uni.createFrom().item(seconds) : admitCheck(account, address))
                .chain(seconds -> {
                    if (seconds > 0) {
                        return Uni.createFrom().item(new Guarded<T>(null, seconds));
                    }
                    // An account under attack answers slowly, for everyone; it is never shut.
                    return slowdown(account).chain(LoginThrottle::waitOnContext).chain(check::get)
                            .chain(result -> (passed.test(result) ? recordSuccess(account, address)
                                    : recordFailure(account, address)).replaceWith(new Guarded<>(result, 0)));
                });
    }

    private static Uni<Void> waitOnContext(Duration wait) {
        if (wait.isZero()) {
            return Uni.createFrom().voidItem();
        }
        Context context = Vertx.currentContext();
        Uni<Void> waited = Uni.createFrom().voidItem().onItem().delayIt().by(wait);
        return context == null ? waited : waited.emitOn(task -> context.runOnContext(v -> task.run()));
    }

    /** The account's key: its id when the login names one (null: it names none), else the login as typed. */
    static String accountKey(Long personId, String login) {
        return personId != null ? "person:" + personId : "account:" + login.toLowerCase(Locale.ROOT);
    }

    static String addressKey(String address) {
        return "address:" + address;
    }

    /**
     * The key of one account tried from one address; the account alone when the address is not
     * known (a caller that names none is then held to the account's own limit, as before).
     */
    static String callerKey(String account, String address) {
        return address == null ? account : account + "|" + addressKey(address);
    }

    /** Seconds until the longest block on this caller (the account from this address, or the address) ends; 0 when none. */
    public Uni<Long> blockedFor(String account, String address) {
        List<String> keys = new ArrayList<>(List.of(callerKey(account, address)));
        if (address != null) {
            keys.add(addressKey(address));
        }
        return pool.preparedQuery("SELECT ceil(extract(epoch FROM max(blocked_until) - now()))::bigint AS seconds "
                + "FROM login_throttle WHERE key = ANY($1) AND blocked_until > now()")
                .execute(Tuple.of(keys.toArray(String[]::new)))
                .map(rows -> {
                    Long seconds = rows.iterator().next().getLong("seconds");
                    if (seconds != null) {
                        metrics.counter("ziggurat.login.refused", "reason", "blocked").increment();
                    }
                    return seconds == null ? 0L : Math.max(1L, seconds);
                });
    }

    /**
     * A wrong password: one more for the account from this address and for the address (either
     * may now be blocked), and one more for the account as a whole (its slow-down).
     */
    public Uni<Void> recordFailure(String account, String address) {
        metrics.counter("ziggurat.login.failures").increment();
        Uni<Void> failed = fail(callerKey(account, address), config.accountThrottle(), "account_address", account, address);
        Uni<Void> counted = address == null ? failed
                : failed.chain(() -> fail(addressKey(address), config.addressThrottle(), "address", account, address));
        return counted.chain(() -> count(account, config.accountThrottle().window())).replaceWithVoid();
    }

    /**
     * How long a check of the account waits before it is made: nothing until the account has
     * failed {@code after} times within the window (from any address), then {@code first},
     * doubling with each further failure up to {@code longest}.
     */
    public Uni<Duration> slowdown(String account) {
        return pool.preparedQuery("SELECT failures FROM login_throttle WHERE key = $1 "
                        + "AND window_started_at >= now() - $2 * interval '1 millisecond'")
                .execute(Tuple.of(account, interval(config.accountThrottle().window())))
                .map(rows -> {
                    int failures = rows.rowCount() == 0 ? 0 : rows.iterator().next().getInteger("failures");
                    Duration wait = slowdownAfter(failures, config.accountSlowdown());
                    if (!wait.isZero()) {
                        metrics.counter("ziggurat.login.slowed").increment();
                        EVENTS.infof("event=login_slowed account=%s failures=%d wait_ms=%d", account, failures, wait.toMillis());
                    }
                    return wait;
                });
    }

    /** The slow-down after {@code failures} failures of an account within the window. */
    static Duration slowdownAfter(int failures, DirectoryConfig.Slowdown slowdown) {
        int beyond = failures - slowdown.after();
        if (beyond <= 0) {
            return Duration.ZERO;
        }
        long longest = slowdown.longest().toMillis();
        long wait = slowdown.first().toMillis() << Math.min(beyond - 1, 30);
        return Duration.ofMillis(Math.min(wait, longest));
    }

    /**
     * Counts one more password check of the account from this address, successful or not, in one
     * statement (so concurrent checks are counted exactly); seconds until the window ends when this
     * one is past the limit, else 0.
     */
    public Uni<Long> admitCheck(String account, String address) {
        DirectoryConfig.Throttle checks = config.accountChecks();
        return count("checks:" + callerKey(account, address), checks.window()).map(row -> {
            if (row.getInteger("failures") > checks.limit()) {
                metrics.counter("ziggurat.login.refused", "reason", "checks").increment();
                return Math.max(1L, row.getLong("seconds"));
            }
            return 0L;
        });
    }

    /**
     * One more of something limited to {@code limit} within {@code window} (password recovery
     * requests, say), counted in one statement: seconds until the window ends when this one is
     * past the limit, else 0.
     */
    public Uni<Long> admit(String key, int limit, Duration window) {
        return count(key, window).map(row -> row.getInteger("failures") > limit ? Math.max(1L, row.getLong("seconds")) : 0L);
    }

    /**
     * A successful check clears the count of the account from this address. Not the address's
     * (one success hides no spray), nor the account's slow-down (the owner's success does not
     * let another address's guessing go on at full speed).
     */
    public Uni<Void> recordSuccess(String account, String address) {
        return pool.preparedQuery("DELETE FROM login_throttle WHERE key = $1").execute(Tuple.of(callerKey(account, address)))
                .replaceWithVoid();
    }

    private Uni<Void> fail(String key, DirectoryConfig.Throttle throttle, String scope, String account, String address) {
        return count(key, throttle.window())
                .chain(row -> {
                    int failures = row.getInteger("failures");
                    if (failures < throttle.limit()) {
                        return Uni.createFrom().voidItem();
                    }
                    if (failures == throttle.limit()) {
                        metrics.counter("ziggurat.login.blocks", "scope", scope).increment();
                        EVENTS.warnf("event=login_blocked scope=%s account=%s address=%s for_s=%d", scope, account,
                                address == null ? "-" : address, throttle.block().toSeconds());
                    }
                    return pool.preparedQuery("UPDATE login_throttle SET blocked_until = now() + $2 * interval '1 millisecond' WHERE key = $1")
                            .execute(Tuple.of(key, interval(throttle.block()))).replaceWithVoid();
                });
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
