package org.ziggurat.platform.time;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/** How long an outbox waits before it tries again what failed: the services' outboxes share the rule. */
public final class Backoff {

    private Backoff() {
    }

    /** After the {@code attempts}-th failure: the first wait, doubled each time, never past the longest. */
    public static Duration doubling(int attempts, Duration first, Duration longest) {
        int doublings = Math.max(0, Math.min(attempts - 1, 30));
        long millis = first.toMillis() << doublings;
        return millis <= 0 || millis > longest.toMillis() ? longest : Duration.ofMillis(millis);
    }

    /**
     * {@link #doubling}, with a random part of up to half of it taken off (jitter): between half the
     * doubled wait and all of it, so that what failed together (an outage) is not tried again all at
     * the same instant.
     */
    public static Duration jittered(int attempts, Duration first, Duration longest) {
        long full = doubling(attempts, first, longest).toMillis();
        return Duration.ofMillis(full - ThreadLocalRandom.current().nextLong(full / 2 + 1));
    }
}
