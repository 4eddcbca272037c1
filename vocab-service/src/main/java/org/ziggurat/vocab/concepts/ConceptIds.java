package org.ziggurat.vocab.concepts;

import java.security.SecureRandom;
import java.util.regex.Pattern;

/** Concept ids: {@code <8 hex>-<4 hex>-<4 hex>-<4 hex>}, the second block the scheme's counter. */
public final class ConceptIds {

    public static final Pattern FORM = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4,8}-[0-9a-f]{4}-[0-9a-f]{4}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private ConceptIds() {
    }

    /** {@code counter} above 0xffff widens the block rather than wrapping. */
    public static String next(int counter) {
        return String.format("%08x-%04x-%04x-%04x", RANDOM.nextInt(), counter, RANDOM.nextInt(0x10000), RANDOM.nextInt(0x10000));
    }
}
