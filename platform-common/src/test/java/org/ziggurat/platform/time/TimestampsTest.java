package org.ziggurat.platform.time;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The hand-written timestamp text is the formatter's, to the character. */
class TimestampsTest {

    @Test
    void writesWhatTheFormatterWrites() {
        SplittableRandom random = new SplittableRandom(20261123);
        long from = Instant.parse("-0100-01-01T00:00:00Z").getEpochSecond();
        long to = Instant.parse("+12000-01-01T00:00:00Z").getEpochSecond();
        for (int i = 0; i < 200_000; i++) {
            Instant instant = Instant.ofEpochSecond(random.nextLong(from, to), random.nextInt(1_000_000_000));
            assertEquals(Timestamps.FORMAT.format(instant), Timestamps.format(instant), instant::toString);
        }
    }

    @Test
    void theEdges() {
        for (String text : new String[] {"1970-01-01T00:00:00Z", "1969-12-31T23:59:59.999999999Z",
                "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "+10000-01-01T00:00:00Z", "-0001-12-31T23:59:59Z",
                "2000-02-29T12:34:56.7Z", "2026-11-23T09:05:03.001Z", "2026-11-23T09:05:03.000999Z"}) {
            Instant instant = Instant.parse(text);
            assertEquals(Timestamps.FORMAT.format(instant), Timestamps.format(instant), text);
        }
        assertEquals("2026-01-18T11:03:26.395Z", Timestamps.format(Instant.parse("2026-01-18T11:03:26.395123Z")));
        assertNull(Timestamps.format(null));
    }
}
