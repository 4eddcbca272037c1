package org.ziggurat.platform.logging;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestIdsTest {

    @Test
    void generatedIdsAreDistinctVersion4Uuids() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 200_000; i++) {
            String id = RequestIds.generate();
            assertTrue(id.matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"), id);
            UUID uuid = UUID.fromString(id);
            assertEquals(4, uuid.version(), id);
            assertEquals(2, uuid.variant(), id);
            assertTrue(seen.add(id), "repeated: " + id);
        }
    }

    @Test
    void generatedIdsDifferAcrossThreads() throws InterruptedException {
        Set<String> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 20_000; i++) {
                    seen.add(RequestIds.generate());
                }
            });
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(80_000, seen.size());
    }

    @Test
    void aSaneOfferedIdIsKeptAndAnythingElseReplaced() {
        assertEquals("abc-123", RequestIds.acceptOrGenerate("abc-123"));
        assertEquals("a.b:c_d", RequestIds.acceptOrGenerate("a.b:c_d"));
        for (String offered : new String[] {null, "", "bad id", "x".repeat(129), "a\r\nb"}) {
            String id = RequestIds.acceptOrGenerate(offered);
            assertNotEquals(offered, id);
            assertEquals(4, UUID.fromString(id).version());
        }
    }
}
