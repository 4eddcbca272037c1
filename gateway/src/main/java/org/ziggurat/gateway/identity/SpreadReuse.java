package org.ziggurat.gateway.identity;

import com.github.benmanes.caffeine.cache.Expiry;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * How long each kept introspection answer is reused ({@link Identities}): a random time between half
 * of {@code reuse} and all of it, and never past the access token's expiry. With one fixed time,
 * tokens first seen together (after a restart, or a client fleet starting) came due together: as
 * many introspections and RSA signatures as tokens at once, a stall every period that every request
 * behind it waited out. Spread, the same work is a steady trickle. An answer the revocation feed
 * cannot vouch for ({@link FeedState.Reuse}) is reused for {@code unproven} at most, or not at all.
 */
final class SpreadReuse implements Expiry<String, Identities.Resolved> {

    private final long reuseNanos;
    private final long unprovenNanos;

    SpreadReuse(Duration reuse, Duration unproven) {
        this.reuseNanos = reuse.toNanos();
        this.unprovenNanos = Math.min(reuseNanos, unproven.toNanos());
    }

    SpreadReuse(Duration reuse) {
        this(reuse, reuse);
    }

    long nanos() {
        return reuseNanos / 2 + ThreadLocalRandom.current().nextLong(reuseNanos / 2 + 1);
    }

    long nanos(Identities.Resolved value) {
        long spread = switch (value.reuse()) {
            case FULL -> nanos();
            case BRIEF -> unprovenNanos;
            case NONE -> 0;
        };
        if (value.expiresAtEpochSecond() <= 0) {
            return spread;
        }
        long left = TimeUnit.MILLISECONDS.toNanos(value.expiresAtEpochSecond() * 1000 - System.currentTimeMillis());
        return Math.max(0, Math.min(spread, left));
    }

    @Override
    public long expireAfterCreate(String key, Identities.Resolved value, long currentTime) {
        return nanos(value);
    }

    @Override
    public long expireAfterUpdate(String key, Identities.Resolved value, long currentTime, long currentDuration) {
        return nanos(value);
    }

    @Override
    public long expireAfterRead(String key, Identities.Resolved value, long currentTime, long currentDuration) {
        return currentDuration;
    }
}
