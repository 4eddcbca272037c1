package org.ziggurat.platform.time;

import java.time.Duration;

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
}
