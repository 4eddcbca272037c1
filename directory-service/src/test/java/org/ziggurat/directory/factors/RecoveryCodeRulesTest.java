package org.ziggurat.directory.factors;

import org.junit.jupiter.api.Test;

import java.security.SecureRandom;
import java.util.HashSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecoveryCodeRulesTest {

    @Test
    void tenDistinctCodesOfTheAlphabet() {
        List<String> codes = RecoveryCodeRules.generate(new SecureRandom());
        assertEquals(RecoveryCodeRules.COUNT, codes.size());
        assertEquals(codes.size(), new HashSet<>(codes).size());
        for (String code : codes) {
            assertTrue(code.matches("[" + RecoveryCodeRules.ALPHABET + "]{5}-[" + RecoveryCodeRules.ALPHABET + "]{5}"), code);
            assertNotNull(RecoveryCodeRules.normalized(code));
        }
    }

    @Test
    void typedWithOrWithoutTheHyphenInAnyCase() {
        assertEquals("abcde23456", RecoveryCodeRules.normalized("abcde-23456"));
        assertEquals("abcde23456", RecoveryCodeRules.normalized(" ABCDE 23456 "));
        assertNull(RecoveryCodeRules.normalized("abcde-2345"), "too short");
        assertNull(RecoveryCodeRules.normalized("abcde-23450"), "0 is not in the alphabet");
        assertNull(RecoveryCodeRules.normalized(null));
        assertEquals("abcde23456", RecoveryCodeRules.normalized("abcde-23456" + " ".repeat(19)), "thirty characters at most");
        assertNull(RecoveryCodeRules.normalized("abcde-23456" + " ".repeat(20)));
    }
}
