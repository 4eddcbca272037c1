package org.ziggurat.platform.logging;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A value from outside in a log line: it cannot end the line or open a field. */
class LogValuesTest {

    @Test
    void onlyTheCharactersOfCodesAndIdsPass() {
        assertEquals("access_denied", LogValues.escaped("access_denied"));
        assertEquals("https://idp.example/realm", LogValues.escaped("https://idp.example/realm"));
        assertEquals("x%0Aevent%3Dlogin_succeeded%20person_id%3D1%22", LogValues.escaped("x\nevent=login_succeeded person_id=1\""));
        assertEquals("%C3%A9", LogValues.escaped("é"));
        assertEquals("-", LogValues.escaped(null));
        String longest = LogValues.escaped("a".repeat(500));
        assertTrue(longest.length() <= LogValues.MOST + 3, longest);
    }
}
