package org.ziggurat.directory.factors;

import com.eatthepath.otp.TimeBasedOneTimePasswordGenerator;
import org.apache.commons.codec.binary.Base32;

import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * TOTP as the authenticator apps do it (RFC 6238 with its defaults: HMAC-SHA-1, six digits, 30
 * seconds): a code is good in its own step and the one before and after it (a clock a little off,
 * a code typed as the step turns), and only in a step later than the last one accepted, so that
 * a code seen over a shoulder or in a log cannot be used again.
 */
public final class TotpRules {

    public static final Duration STEP = Duration.ofSeconds(30);
    public static final int DIGITS = 6;
    /** Steps either side of now whose codes are accepted. */
    public static final int DRIFT = 1;
    /** 160 bits, the key size RFC 4226 recommends for HMAC-SHA-1. */
    public static final int KEY_BYTES = 20;

    /** Not accepted: no step in the window has this code, or only one already used. */
    public static final long REFUSED = -1;

    private static final Pattern CODE = Pattern.compile("[0-9]{6}");
    private static final TimeBasedOneTimePasswordGenerator GENERATOR = new TimeBasedOneTimePasswordGenerator(STEP, DIGITS);

    private TotpRules() {
    }

    /** The step of a moment: whole 30-second periods since the epoch. */
    public static long step(Instant at) {
        return Math.floorDiv(at.getEpochSecond(), STEP.toSeconds());
    }

    /** A code as people type it: spaces and a hyphen in the middle are allowed; null when it is not six digits. */
    public static String normalized(String typed) {
        if (typed == null || typed.length() > 20) {
            return null;
        }
        String code = typed.replaceAll("[\\s-]", "");
        return CODE.matcher(code).matches() ? code : null;
    }

    /**
     * The step whose code {@code typed} is, within the window around {@code now} and after
     * {@code lastStep}; {@link #REFUSED} otherwise. Every step of the window is compared, in
     * constant time, whatever matched.
     */
    public static long acceptedStep(byte[] key, String typed, Instant now, long lastStep) {
        String code = normalized(typed);
        if (code == null) {
            return REFUSED;
        }
        long current = step(now);
        long accepted = REFUSED;
        for (long step = current - DRIFT; step <= current + DRIFT; step++) {
            boolean same = MessageDigest.isEqual(codeAt(key, step).getBytes(StandardCharsets.US_ASCII),
                    code.getBytes(StandardCharsets.US_ASCII));
            if (same && step > lastStep && accepted == REFUSED) {
                accepted = step;
            }
        }
        return accepted;
    }

    /** The code of a step, as an authenticator app shows it. */
    public static String codeAt(byte[] key, long step) {
        try {
            int code = GENERATOR.generateOneTimePassword(new SecretKeySpec(key, "HmacSHA1"),
                    Instant.ofEpochSecond(step * STEP.toSeconds()));
            return String.format(Locale.ROOT, "%06d", code);
        } catch (InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The key as people type it into an app: Base32 (RFC 4648) without padding. */
    public static String base32(byte[] key) {
        return new Base32().encodeAsString(key).replace("=", "");
    }
}
