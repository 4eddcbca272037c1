package org.ziggurat.directory.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.directory.DirectoryConfig;
import org.ziggurat.directory.internal.LoginThrottleRepository.Limit;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Counts password (and second-factor) checks in Postgres ({@link LoginThrottleRepository}), so
 * every replica sees the same counts, and refuses a caller once it passes its limit: per account
 * and address together, and per
 * address. Never an account as a whole, whoever asks: ten wrong passwords from anywhere would then
 * lock its owner out, again and again. Instead the account's failures, from every address, slow
 * down the further checks from an address that failed for it too (up to a bound well within what
 * the caller waits), which costs a guesser and never its owner on an address of their own. A
 * check is counted before it is made, in one transaction of conditional increments (so parallel
 * checks cannot pass a limit), and given back when it passes. An existing account is counted by
 * its id, so its username and its email share one count; a login that names no account is counted
 * as typed (lower case), and costs the same work. IPv6 addresses are counted by their /64. Every
 * block and slow-down is logged and counted (metrics), so that an operator sees an attack.
 */
@ApplicationScoped
public class LoginThrottle {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.directory.security");

    private final LoginThrottleRepository counts;
    private final DirectoryConfig config;
    private final MeterRegistry metrics;

    LoginThrottle(LoginThrottleRepository counts, DirectoryConfig config, MeterRegistry metrics) {
        this.counts = counts;
        this.config = config;
        this.metrics = metrics;
    }

    /** A guarded check's answer: the check's result, or (null) how many seconds the caller must wait. */
    public record Guarded<T>(T result, long retryAfter) {
    }

    /**
     * One check of a password under the throttle: per account and address, per address, and the
     * account's failures slowing down the addresses that fail for it (no limit of the account as a whole).
     */
    public <T> Uni<Guarded<T>> guard(String account, String address, Supplier<Uni<T>> check, Predicate<T> passed) {
        return guard(account, address, null, check, passed);
    }

    /**
     * One check of an account from an address under the throttle (passwords, second factors):
     * counted before it is made, refused when a count is full or blocked; else, after the account's
     * slow-down for this caller, the check, whose answer {@code passed} says was right (a success:
     * the counts are given back) or wrong (a failure: the counts stay, and a full one blocks).
     * {@code accountLimit}: a limit of the account from every address together (second factors,
     * after the password), null for none. The check runs on the caller's Vert.x context (a reactive
     * session must), not on the timer's thread.
     */
    public <T> Uni<Guarded<T>> guard(String account, String address, DirectoryConfig.Throttle accountLimit,
            Supplier<Uni<T>> check, Predicate<T> passed) {
        String group = LoginRules.addressGroup(address);
        List<Limit> limits = limits(account, group, accountLimit);
        List<String> keys = limits.stream().map(Limit::key).toList();
        String checksKey = "checks:" + callerKey(account, group);
        // A check that was not made (the hashing queue full: a 503) gives back every count it took,
        // its place among the caller's checks too: retries during someone else's flood use none up.
        List<String> notMade = java.util.stream.Stream.concat(keys.stream(), java.util.stream.Stream.of(checksKey)).toList();
        Context context = Vertx.currentContext();
        return runsToItsEnd(counts.admit(limits, checksKey, config.accountChecks())
                .chain(before -> {
                    // An account under attack answers slowly to the addresses that fail for it; it is never shut.
                    Duration wait = slowdown(account, before[before.length - 1], before[0]);
                    return waitOnContext(wait, context)
                            .chain(() -> check.get().onFailure().call(() -> counts.giveBack(notMade)))
                            .chain(result -> (passed.test(result) ? recordSuccess(keys)
                                    : recordFailure(account, address, limits)).replaceWith(new Guarded<>(result, 0)));
                })
                .onFailure(LoginThrottleRepository.Refused.class).recoverWithItem(e -> {
                    LoginThrottleRepository.Refused refused = (LoginThrottleRepository.Refused) e;
                    metrics.counter("ziggurat.login.refused", "reason", refused.reason).increment();
                    return new Guarded<T>(null, refused.seconds);
                }));
    }

    /**
     * A check once counted runs to its end and is recorded, even when its caller goes away: a caller
     * that closed its connection mid-check (a client's timeout, a load generator ending its run)
     * cancelled the chain between the count and its giving back, and each such check stayed
     * counted as if it had failed. An address's count filled that way (100 in under a minute of
     * the benchmark's password grants) and refused every sign-in from it, a whole institution's
     * behind one NAT. The caller that went away is sent nothing, so nothing is learnt from the check.
     */
    static <T> Uni<T> runsToItsEnd(Uni<T> work) {
        return Uni.createFrom().emitter(emitter -> work.subscribe().with(emitter::complete, emitter::fail));
    }

    /**
     * The counts of one check, in the order they are taken: the account from this address, the
     * address (its group), the account (its failures from everywhere, which slow it down; limited
     * only when {@code accountLimit} is given).
     */
    private List<Limit> limits(String account, String group, DirectoryConfig.Throttle accountLimit) {
        List<Limit> limits = new ArrayList<>();
        limits.add(Limit.of(callerKey(account, group), "account_address", config.accountThrottle()));
        if (group != null) {
            limits.add(Limit.of(addressKey(group), "address", config.addressThrottle()));
        }
        limits.add(accountLimit == null ? Limit.unlimited(account, "account", config.accountThrottle())
                : Limit.of(account, "account", accountLimit));
        return limits;
    }

    private static Uni<Void> waitOnContext(Duration wait, Context context) {
        if (wait.isZero()) {
            return Uni.createFrom().voidItem();
        }
        Uni<Void> waited = Uni.createFrom().voidItem().onItem().delayIt().by(wait);
        return context == null ? waited : waited.emitOn(task -> context.runOnContext(v -> task.run()));
    }

    /** The account's key: its id when the login names one (null: it names none), else the login as typed. */
    static String accountKey(Long personId, String login) {
        return personId != null ? "person:" + personId : "account:" + login.toLowerCase(Locale.ROOT);
    }

    /** The key of an address's group ({@link LoginRules#addressGroup}). */
    static String addressKey(String group) {
        return "address:" + group;
    }

    /**
     * The key of one account tried from one address (its group); for a caller that names no
     * address (the API's own password confirmations), the account from an unknown address: a count
     * of its own, apart from the account's failures from everywhere.
     */
    static String callerKey(String account, String group) {
        return account + "|" + (group == null ? "address-unknown" : addressKey(group));
    }

    /**
     * How long this check waits: nothing for an address without failures of the account before it
     * (or whose last check of it passed), else the account's slow-down ({@link LoginRules#slowdown}).
     */
    private Duration slowdown(String account, int accountFailuresBefore, int callerFailuresBefore) {
        Duration wait = LoginRules.slowdown(accountFailuresBefore, callerFailuresBefore, config.accountSlowdown(),
                config.callersTimeout());
        if (!wait.isZero()) {
            metrics.counter("ziggurat.login.slowed").increment();
            EVENTS.infof("event=login_slowed account=%s failures=%d wait_ms=%d", account, accountFailuresBefore, wait.toMillis());
        }
        return wait;
    }

    /**
     * A wrong answer: the counts taken before the check stay; each that is now full blocks its key
     * (the account from this address, or the address; the account only where it has a limit).
     */
    private Uni<Void> recordFailure(String account, String address, List<Limit> limits) {
        metrics.counter("ziggurat.login.failures").increment();
        List<Limit> limited = limits.stream().filter(Limit::limited).toList();
        return counts.blockFull(limited).invoke(blocked -> blocked.forEach(b -> {
            if (b.count() == b.limit()) {
                Limit limit = limited.stream().filter(l -> l.scope().equals(b.scope())).findFirst().orElseThrow();
                metrics.counter("ziggurat.login.blocks", "scope", b.scope()).increment();
                EVENTS.warnf("event=login_blocked scope=%s account=%s address=%s for_s=%d", b.scope(), account,
                        address == null ? "-" : address, limit.block().toSeconds());
            }
        })).replaceWithVoid();
    }

    /**
     * A right answer clears the count of the account from this address, and gives back what the
     * check took of the address's and the account's: a success is no failure. Neither is cleared
     * (one success hides no spray, and the owner's success does not let another address's
     * guessing go on at full speed).
     */
    private Uni<Void> recordSuccess(List<String> keys) {
        return counts.clear(keys.get(0)).chain(() -> counts.giveBack(keys.subList(1, keys.size())));
    }

    /**
     * One more of something limited to {@code limit} within {@code window} (password recovery
     * requests, say), counted in one statement: seconds until the window ends when this one is
     * past the limit, else 0.
     */
    public Uni<Long> admit(String key, int limit, Duration window) {
        return counts.admit(key, limit, window);
    }

    /** Unused rows (window over, no block in force) can go; called by the purge. */
    public Uni<Integer> purge(OffsetDateTime before) {
        return counts.purge(before);
    }
}
