package org.ziggurat.vocab;

import com.github.benmanes.caffeine.cache.Ticker;
import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.mutiny.Uni;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A kept page lives while it is read: one not read for the idle time is rendered again, and is
 * gone from the heap on time, with no read or write to make the cache look.
 */
class RenderedPagesIdleTest {

    private static final MemorySize BOUND = new MemorySize(java.math.BigInteger.valueOf(1 << 20));
    private final AtomicInteger renderings = new AtomicInteger();
    private final Supplier<Uni<RenderedPages.Page>> render = () -> {
        renderings.incrementAndGet();
        byte[] body = "{\"concepts\":[]}".getBytes(StandardCharsets.UTF_8);
        return Uni.createFrom().item(new RenderedPages.Page(new Etags.Rendered(body, "\"e1\""), false));
    };

    private void read(RenderedPages pages) {
        pages.get(RenderedPages.ofScheme(1, 7), "https://api.test/v1 /alice/vocab/schemes/s/concepts", render)
                .await().indefinitely();
    }

    @Test
    void aPageReadWithinTheIdleTimeIsKeptAndOneNotReadIsRenderedAgain() {
        AtomicLong nanos = new AtomicLong();
        Ticker clock = nanos::get;
        RenderedPages pages = new RenderedPages(BOUND, Duration.ofSeconds(30), clock);
        read(pages);
        for (int i = 0; i < 4; i++) { // read every 20 s for 80 s: each read keeps it
            nanos.addAndGet(TimeUnit.SECONDS.toNanos(20));
            read(pages);
        }
        assertEquals(1, renderings.get());
        nanos.addAndGet(TimeUnit.SECONDS.toNanos(31));
        read(pages);
        assertEquals(2, renderings.get());
    }

    @Test
    void aPageNotReadIsDroppedOnTimeWithoutAnyOtherUse() {
        RenderedPages pages = new RenderedPages(BOUND, Duration.ofMillis(200), Ticker.systemTicker());
        read(pages);
        assertEquals(1, pages.kept());
        // kept() does no clean-up itself: only the cache's scheduled one can bring it to 0.
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> pages.kept() == 0);
    }

    @Test
    void aZeroBoundKeepsNothing() {
        RenderedPages pages = new RenderedPages(new MemorySize(java.math.BigInteger.ZERO), Duration.ofSeconds(30),
                Ticker.systemTicker());
        read(pages);
        read(pages);
        assertEquals(2, renderings.get());
        assertTrue(pages.kept() == 0);
    }
}
