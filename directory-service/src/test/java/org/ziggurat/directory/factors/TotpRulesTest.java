package org.ziggurat.directory.factors;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The TOTP window and replay rule (RFC 6238), against the RFC's own test vectors. */
class TotpRulesTest {

    /** RFC 6238 Appendix B's SHA-1 key. */
    static final byte[] KEY = "12345678901234567890".getBytes(StandardCharsets.US_ASCII);

    @Test
    void theCodesAreRfc6238s() {
        // Appendix B: T = 59 s gives 94287082 (eight digits); six digits are its last six.
        assertEquals("287082", TotpRules.codeAt(KEY, TotpRules.step(Instant.ofEpochSecond(59))));
        assertEquals("081804", TotpRules.codeAt(KEY, TotpRules.step(Instant.ofEpochSecond(1111111109))));
        assertEquals("050471", TotpRules.codeAt(KEY, TotpRules.step(Instant.ofEpochSecond(1111111111))));
        assertEquals("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", TotpRules.base32(KEY));
    }

    @Test
    void aCodeIsGoodInItsStepAndOneEitherSide() {
        Instant now = Instant.ofEpochSecond(1_800_000_015);
        long step = TotpRules.step(now);
        assertEquals(step, TotpRules.acceptedStep(KEY, TotpRules.codeAt(KEY, step), now, 0));
        assertEquals(step - 1, TotpRules.acceptedStep(KEY, TotpRules.codeAt(KEY, step - 1), now, 0));
        assertEquals(step + 1, TotpRules.acceptedStep(KEY, TotpRules.codeAt(KEY, step + 1), now, 0));
        assertEquals(TotpRules.REFUSED, TotpRules.acceptedStep(KEY, TotpRules.codeAt(KEY, step - 2), now, 0));
        assertEquals(TotpRules.REFUSED, TotpRules.acceptedStep(KEY, TotpRules.codeAt(KEY, step + 2), now, 0));
    }

    @Test
    void aCodeIsGoodOnceAndNoEarlierCodeAfterIt() {
        Instant now = Instant.ofEpochSecond(1_800_000_015);
        long step = TotpRules.step(now);
        String code = TotpRules.codeAt(KEY, step);
        assertEquals(TotpRules.REFUSED, TotpRules.acceptedStep(KEY, code, now, step));
        assertEquals(TotpRules.REFUSED, TotpRules.acceptedStep(KEY, TotpRules.codeAt(KEY, step - 1), now, step));
        assertEquals(step + 1, TotpRules.acceptedStep(KEY, TotpRules.codeAt(KEY, step + 1), now, step));
        assertEquals(step, TotpRules.acceptedStep(KEY, code, now, step - 1));
    }

    @Test
    void codesAreTypedAsPeopleTypeThem() {
        Instant now = Instant.ofEpochSecond(1_800_000_015);
        String code = TotpRules.codeAt(KEY, TotpRules.step(now));
        String spaced = code.substring(0, 3) + " " + code.substring(3);
        assertEquals(TotpRules.step(now), TotpRules.acceptedStep(KEY, spaced, now, 0));
        assertEquals("123456", TotpRules.normalized("123456" + " ".repeat(14)), "twenty characters, spaces and all");
        assertNull(TotpRules.normalized("123456" + " ".repeat(15)), "no more");
        assertNull(TotpRules.normalized("12345"));
        assertNull(TotpRules.normalized("12345a"));
        assertNull(TotpRules.normalized(null));
        assertEquals(TotpRules.REFUSED, TotpRules.acceptedStep(KEY, "1234567", now, 0));
    }
}
