package org.ziggurat.auth.oauth;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UserCodesTest {

    @Test
    void peopleMayTypeACodeAsTheyLike() {
        assertEquals("BCDFGHJK", UserCodes.normalize("BCDF-GHJK"));
        assertEquals("BCDFGHJK", UserCodes.normalize(" bcdf ghjk "));
        assertEquals("BCDFGHJK", UserCodes.normalize("bcdfghjk"));
        assertEquals("BCDF-GHJK", UserCodes.display("BCDFGHJK"));
        // Up to 32 characters typed, spaces and all; more is not a code.
        assertEquals("BCDFGHJK", UserCodes.normalize("BCDF-GHJK" + " ".repeat(23)));
        assertNull(UserCodes.normalize("BCDF-GHJK" + " ".repeat(24)));
    }

    @Test
    void whatCannotBeACodeIsNone() {
        assertNull(UserCodes.normalize("BCDF-GHJ"), "too short");
        assertNull(UserCodes.normalize("BCDF-GHJKL"), "too long");
        assertNull(UserCodes.normalize("BCDA-GHJK"), "a vowel is not in the alphabet");
        assertNull(UserCodes.normalize("BCD0-GHJK"), "nor a digit");
        assertNull(UserCodes.normalize(null));
        assertNull(UserCodes.normalize("B".repeat(100)));
    }

    @Test
    void theAlphabetHasNoVowelsAndNoLookAlikes() {
        for (char c : "AEIOUY01".toCharArray()) {
            assertTrue(UserCodes.ALPHABET.indexOf(c) < 0, "the alphabet has " + c);
        }
        assertEquals(20, UserCodes.ALPHABET.chars().distinct().count());
    }
}
