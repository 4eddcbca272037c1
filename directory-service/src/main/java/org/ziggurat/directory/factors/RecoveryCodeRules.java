package org.ziggurat.directory.factors;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Recovery codes: ten at a time, each ten characters of an alphabet without look-alikes (no 0/o,
 * 1/l/i), 50 bits, shown as {@code xxxxx-xxxxx}; typed back with or without the hyphen, in any case.
 */
public final class RecoveryCodeRules {

    public static final int COUNT = 10;
    static final String ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
    private static final int LENGTH = 10;
    private static final Pattern NORMALIZED = Pattern.compile("[" + ALPHABET + "]{" + LENGTH + "}");

    private RecoveryCodeRules() {
    }

    /** A new set of codes, as the person sees them. */
    public static List<String> generate(SecureRandom random) {
        List<String> codes = new ArrayList<>(COUNT);
        while (codes.size() < COUNT) {
            StringBuilder code = new StringBuilder(LENGTH + 1);
            for (int i = 0; i < LENGTH; i++) {
                if (i == LENGTH / 2) {
                    code.append('-');
                }
                code.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
            }
            if (!codes.contains(code.toString())) {
                codes.add(code.toString());
            }
        }
        return codes;
    }

    /** The form that is hashed: lower case, no hyphen or spaces; null when it cannot be a code. */
    public static String normalized(String typed) {
        if (typed == null || typed.length() > 30) {
            return null;
        }
        String code = typed.replaceAll("[\\s-]", "").toLowerCase(Locale.ROOT);
        return NORMALIZED.matcher(code).matches() ? code : null;
    }
}
