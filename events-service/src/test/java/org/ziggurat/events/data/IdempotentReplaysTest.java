package org.ziggurat.events.data;

import org.junit.jupiter.api.Test;
import org.ziggurat.platform.problem.ProblemException;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** When an Idempotency-Key replays the first event, and when it is refused, without the database. */
class IdempotentReplaysTest {

    static final byte[] BODY = IdempotentReplays.hash("{\"kind\":\"Fork\"}".getBytes(StandardCharsets.UTF_8));
    static final byte[] OTHER = IdempotentReplays.hash("{\"kind\":\"FileUpload\"}".getBytes(StandardCharsets.UTF_8));

    @Test
    void aNewKeyIsNoReplay() {
        assertNull(IdempotentReplays.replayOf(null, BODY, false));
    }

    @Test
    void theSameKeyAndBodyReplayTheFirstEvent() {
        assertEquals(41L, IdempotentReplays.replayOf(new EventRepository.Previous(41, BODY.clone()), BODY, false));
        assertEquals(41L, IdempotentReplays.replayOf(new EventRepository.Previous(41, BODY.clone()), BODY, true));
    }

    @Test
    void theSameKeyWithAnotherBodyIsRefusedNamingTheHeader() {
        ProblemException refused = assertThrows(ProblemException.class,
                () -> IdempotentReplays.replayOf(new EventRepository.Previous(41, OTHER), BODY, false));
        assertEquals(422, refused.status());
        assertEquals("Idempotency-Key", refused.errors().get(0).field());
        assertThrows(ProblemException.class,
                () -> IdempotentReplays.replayOf(new EventRepository.Previous(41, OTHER), BODY, true));
    }

    @Test
    void aLostRaceWithoutAFirstEventIsRefusedNotASecondEvent() {
        assertEquals(422, assertThrows(ProblemException.class, () -> IdempotentReplays.replayOf(null, BODY, true)).status());
    }

    @Test
    void theHashIsSha256OfTheBytes() {
        assertEquals(32, BODY.length);
        assertFalse(Arrays.equals(BODY, OTHER));
        assertArrayEquals(BODY, IdempotentReplays.hash("{\"kind\":\"Fork\"}".getBytes(StandardCharsets.UTF_8)));
    }
}
