package org.ziggurat.directory.people;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * The tokens that mailed links carry: 256 random bits, base64url. Only their SHA-256 hash is
 * stored, so the table alone opens nothing; a hash of so much randomness needs no key.
 */
public final class EmailTokens {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Pattern FORM = Pattern.compile("[A-Za-z0-9_-]{43}");

    private EmailTokens() {
    }

    public static String newToken() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Whether it can be a token at all (checked before any look-up). */
    public static boolean wellFormed(String token) {
        return token != null && FORM.matcher(token).matches();
    }

    public static byte[] hash(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.US_ASCII));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
