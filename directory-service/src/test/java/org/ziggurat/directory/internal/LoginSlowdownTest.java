package org.ziggurat.directory.internal;

import org.junit.jupiter.api.Test;
import org.ziggurat.directory.DirectoryConfig;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** How long an account's checks wait after its failures from every address: nothing, then doubling, bounded. */
class LoginSlowdownTest {

    static final DirectoryConfig.Slowdown DEFAULTS = new DirectoryConfig.Slowdown() {
        @Override
        public int after() {
            return 5;
        }

        @Override
        public Duration first() {
            return Duration.ofMillis(250);
        }

        @Override
        public Duration longest() {
            return Duration.ofSeconds(10);
        }
    };

    @Test
    void nothingUntilTheThresholdThenDoublingUpToTheBound() {
        for (int failures = 0; failures <= 5; failures++) {
            assertEquals(Duration.ZERO, LoginThrottle.slowdownAfter(failures, DEFAULTS), failures + " failures");
        }
        assertEquals(Duration.ofMillis(250), LoginThrottle.slowdownAfter(6, DEFAULTS));
        assertEquals(Duration.ofMillis(500), LoginThrottle.slowdownAfter(7, DEFAULTS));
        assertEquals(Duration.ofMillis(1000), LoginThrottle.slowdownAfter(8, DEFAULTS));
        assertEquals(Duration.ofMillis(8000), LoginThrottle.slowdownAfter(11, DEFAULTS));
        assertEquals(Duration.ofSeconds(10), LoginThrottle.slowdownAfter(12, DEFAULTS));
        // However many: bounded, and no overflow.
        assertEquals(Duration.ofSeconds(10), LoginThrottle.slowdownAfter(Integer.MAX_VALUE, DEFAULTS));
        assertEquals(Duration.ofSeconds(10), LoginThrottle.slowdownAfter(1_000, DEFAULTS));
    }
}
