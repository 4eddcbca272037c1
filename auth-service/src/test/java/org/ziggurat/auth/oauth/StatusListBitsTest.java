package org.ziggurat.auth.oauth;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The bit order and encoding of draft-ietf-oauth-status-list §4.1, against its own examples. */
class StatusListBitsTest {

    /** §4.1's example: statuses 1 0 0 1 1 1 0 1 | 1 1 0 0 0 1 0 1 are the bytes 0xB9 0xA3, and its lst. */
    @Test
    void theDraftsSixteenTokensAreItsTwoBytesAndItsLst() {
        int[] statuses = {1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1};
        List<Integer> invalid = new ArrayList<>();
        for (int idx = 0; idx < statuses.length; idx++) {
            if (statuses[idx] == StatusListBits.INVALID) {
                invalid.add(idx);
            }
        }
        byte[] bytes = StatusListBits.bytes(16, invalid.stream().mapToInt(Integer::intValue).toArray());
        assertArrayEquals(new byte[] {(byte) 0xB9, (byte) 0xA3}, bytes, "the least significant bit first");
        // The draft's compressed array 78dadbb918000217015d: ZLIB at the highest level, base64url without padding.
        assertEquals("eNrbuRgAAhcBXQ", StatusListBits.lst(bytes, java.util.zip.Deflater.BEST_COMPRESSION));
        for (String lst : List.of("eNrbuRgAAhcBXQ", StatusListBits.lst(bytes))) {
            byte[] read = StatusListBits.decode(lst, 2);
            for (int idx = 0; idx < statuses.length; idx++) {
                assertEquals(statuses[idx], StatusListBits.status(read, idx), "status[" + idx + "] of " + lst);
            }
        }
    }

    /** Appendix A's 1-bit test vector: a list of 2^20 with eleven tokens INVALID. */
    @Test
    void theDraftsListOfAMillionReadsAsItSays() {
        int[] invalid = {0, 1993, 25460, 159495, 495669, 554353, 645645, 723232, 854545, 934534, 1000345};
        String lst = "eNrt3AENwCAMAEGogklACtKQPg9LugC9k_ACvreiogEAAKkeCQAAAAAAAAAAAAAAAAAAAIBylgQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
                + "AAAAAAAAAAAAAAAAAAAXG9IAAAAAAAAAPwsJAAAAAAAAAAAAAAAvhsSAAAAAAAAAAAA7KpLAAAAAAAAAAAAAAAAAAAAAJsLCQAAAAAAAAAAADjelAAAAAAAAAAA"
                + "KjDMAQAAAACAZC8L2AEb";
        byte[] expected = StatusListBits.bytes(1 << 20, invalid);
        assertArrayEquals(expected, StatusListBits.decode(lst, 1 << 17));
        // What this side compresses reads back the same, whatever the compressor's choices.
        assertArrayEquals(expected, StatusListBits.decode(StatusListBits.lst(expected), 1 << 17));
        assertEquals(1, StatusListBits.status(expected, 1000345));
        assertEquals(0, StatusListBits.status(expected, 1000344));
    }

    @Test
    void aListLongerThanAskedOrNotZlibIsRefused() {
        String big = StatusListBits.lst(new byte[1 << 17]);
        assertThrows(IllegalArgumentException.class, () -> StatusListBits.decode(big, 1 << 16));
        assertThrows(IllegalArgumentException.class, () -> StatusListBits.decode("AAAA", 16));
        assertThrows(IllegalArgumentException.class, () -> StatusListBits.bytes(12, new int[0]));
    }
}
