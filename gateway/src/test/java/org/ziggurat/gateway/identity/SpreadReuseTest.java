package org.ziggurat.gateway.identity;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SpreadReuseTest {

    @Test
    void answersComeDueSpreadOverTheSecondHalfOfTheReuseTime() {
        SpreadReuse reuse = new SpreadReuse(Duration.ofSeconds(30));
        long half = Duration.ofSeconds(15).toNanos();
        long whole = Duration.ofSeconds(30).toNanos();
        Set<Long> seconds = new HashSet<>();
        long min = Long.MAX_VALUE;
        long max = 0;
        for (int i = 0; i < 1000; i++) {
            long nanos = reuse.expireAfterCreate("token-" + i, FAR, 0);
            assertTrue(nanos >= half && nanos <= whole, "reuse " + nanos + " ns is outside 15-30 s");
            seconds.add(nanos / 1_000_000_000L);
            min = Math.min(min, nanos);
            max = Math.max(max, nanos);
        }
        // 1,000 tokens signed together come due over the whole window, not in one instant.
        assertTrue(seconds.size() >= 15, "due in only " + seconds.size() + " distinct seconds");
        assertTrue(max - min > Duration.ofSeconds(12).toNanos(), "spread " + (max - min) + " ns");
        // A read never extends the reuse: a token is signed again however often it is used.
        assertEquals(1234L, reuse.expireAfterRead("t", FAR, 0, 1234L));
    }

    @Test
    void noAnswerOutlivesItsAccessToken() {
        SpreadReuse reuse = new SpreadReuse(Duration.ofSeconds(30));
        long now = System.currentTimeMillis() / 1000;
        for (int i = 0; i < 100; i++) {
            long nanos = reuse.expireAfterCreate("t", new Identities.Resolved("jwt", "c", now + 3, null), 0);
            assertTrue(nanos <= Duration.ofSeconds(3).toNanos(), "kept " + nanos + " ns past the token's expiry");
        }
        assertEquals(0, reuse.expireAfterCreate("t", new Identities.Resolved("jwt", "c", now - 5, null), 0));
        // Without an expiry (introspection may leave exp out), the spread alone bounds it.
        long nanos = reuse.expireAfterCreate("t", new Identities.Resolved(null, "c", 0, null), 0);
        assertTrue(nanos >= Duration.ofSeconds(15).toNanos() && nanos <= Duration.ofSeconds(30).toNanos());
    }

    /**
     * An answer the revocation feed cannot vouch for is kept for the unproven reuse exactly (the
     * feed lost, or everything forgotten just before), one about a token the feed just named not at
     * all, and only a vouched-for one for the spread.
     */
    @Test
    void howLongAnAnswerIsKeptFollowsWhatTheFeedVouchesFor() {
        SpreadReuse reuse = new SpreadReuse(Duration.ofSeconds(30), Duration.ofSeconds(1));
        assertEquals(Duration.ofSeconds(1).toNanos(), reuse.expireAfterCreate("t", FAR.withReuse(FeedState.Reuse.BRIEF), 0));
        assertEquals(Duration.ofSeconds(1).toNanos(), reuse.expireAfterUpdate("t", FAR.withReuse(FeedState.Reuse.BRIEF), 0, 5));
        assertEquals(0, reuse.expireAfterCreate("t", FAR.withReuse(FeedState.Reuse.NONE), 0));
        long full = reuse.expireAfterCreate("t", FAR.withReuse(FeedState.Reuse.FULL), 0);
        assertTrue(full >= Duration.ofSeconds(15).toNanos() && full <= Duration.ofSeconds(30).toNanos(), "kept " + full + " ns");
    }

    private static final Identities.Resolved FAR = new Identities.Resolved("jwt", "client",
            System.currentTimeMillis() / 1000 + 3600, null);
}
