package org.ziggurat.auth.oauth;

import java.io.ByteArrayOutputStream;
import java.util.Base64;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The Status List of draft-ietf-oauth-status-list (§4.1), one bit per token ({@code bits} 1): a
 * token's status is bit {@code idx % 8} of byte {@code idx / 8}, counted from the least significant
 * bit; the byte array is compressed with DEFLATE in the ZLIB format and carried base64url-encoded
 * without padding as the list's {@code lst}.
 *
 * <p>Served lists are compressed at zlib's default level, not the highest the draft recommends:
 * on a list of 2^20 with a few percent revoked, the highest took thirty times as long (140 ms
 * against 5 ms at 1% revoked) for an output 13% smaller (bench/README.md), and a replica may build
 * a list twice a second.
 */
public final class StatusListBits {

    /** Bits per token: 0 VALID, 1 INVALID (§7.1); this server never suspends a token. */
    public static final int BITS = 1;
    public static final int VALID = 0;
    public static final int INVALID = 1;

    private StatusListBits() {
    }

    /** The byte array of a list of {@code entries} tokens (a multiple of 8) with the given ones INVALID. */
    public static byte[] bytes(int entries, int[] invalid) {
        if (entries % 8 != 0) {
            throw new IllegalArgumentException("a list's size is a whole number of bytes");
        }
        byte[] bytes = new byte[entries / 8];
        for (int idx : invalid) {
            bytes[idx >>> 3] |= (byte) (1 << (idx & 7));
        }
        return bytes;
    }

    /** {@code lst} as served: the byte array compressed (ZLIB, the default level), base64url without padding. */
    public static String lst(byte[] bytes) {
        return lst(bytes, Deflater.DEFAULT_COMPRESSION);
    }

    /** {@code lst} at a {@link Deflater} level of its own (the draft's examples use the highest). */
    public static String lst(byte[] bytes, int level) {
        Deflater deflater = new Deflater(level);
        try {
            deflater.setInput(bytes);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, bytes.length / 64));
            byte[] chunk = new byte[8192];
            while (!deflater.finished()) {
                out.write(chunk, 0, deflater.deflate(chunk));
            }
            return Base64.getUrlEncoder().withoutPadding().encodeToString(out.toByteArray());
        } finally {
            deflater.end();
        }
    }

    /** The byte array of an {@code lst}, as a relying party reads it (at most {@code maxBytes}). */
    public static byte[] decode(String lst, int maxBytes) {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(Base64.getUrlDecoder().decode(lst));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] chunk = new byte[8192];
            while (!inflater.finished()) {
                int n = inflater.inflate(chunk);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new IllegalArgumentException("the list ends before its compressed data does");
                }
                out.write(chunk, 0, n);
                if (out.size() > maxBytes) {
                    throw new IllegalArgumentException("the list is longer than " + maxBytes + " bytes");
                }
            }
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("the list is not ZLIB data", e);
        } finally {
            inflater.end();
        }
    }

    /** The status of token {@code idx} in a byte array. */
    public static int status(byte[] bytes, int idx) {
        return (bytes[idx >>> 3] >>> (idx & 7)) & 1;
    }
}
