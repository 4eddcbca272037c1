package org.ziggurat.auth.oauth;

import java.util.Locale;

/**
 * The user codes of the device flow (RFC 8628 §6.1): easy to read aloud and to type, hard to guess.
 * Eight letters of an alphabet of twenty consonants (no vowels, so no words; none of 0/O or 1/I to
 * confuse): 20^8, about 2.6 × 10^10 codes, against a handful of guesses per signed-in session and
 * a few minutes of life. Shown as {@code BCDF-GHJK}; typed in any case, with or without the dash
 * or spaces.
 */
public final class UserCodes {

    public static final String ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
    public static final int LENGTH = 8;

    private UserCodes() {
    }

    /** The form people see: two groups of four. */
    public static String display(String code) {
        return code.substring(0, LENGTH / 2) + "-" + code.substring(LENGTH / 2);
    }

    /** What a person typed, in the stored form; null when it cannot be a user code. */
    public static String normalize(String typed) {
        if (typed == null || typed.length() > 4 * LENGTH) {
            return null;
        }
        String code = typed.toUpperCase(Locale.ROOT).replaceAll("[\\s-]", "");
        if (code.length() != LENGTH) {
            return null;
        }
        for (int i = 0; i < code.length(); i++) {
            if (ALPHABET.indexOf(code.charAt(i)) < 0) {
                return null;
            }
        }
        return code;
    }
}
