package org.ziggurat.directory.factors;

import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.directory.DirectoryConfig;

import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;

/**
 * What the factor key ({@link DirectoryConfig#factorKey()}) does: seals TOTP keys with AES-256-GCM,
 * bound to their person (the person's id is the associated data, so a sealed key copied to another
 * row does not open), and keys the hashes of recovery codes. Each use has its own key, derived
 * from the factor key by HMAC with the use's name.
 */
@ApplicationScoped
public class FactorSecrets {

    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final SecretKeySpec sealKey;
    private final SecretKeySpec recoveryKey;
    private final SecureRandom random = new SecureRandom();

    FactorSecrets(DirectoryConfig config) {
        byte[] key;
        try {
            key = Base64.getDecoder().decode(config.factorKey().orElseThrow(() -> new IllegalStateException(
                    "ziggurat.directory.factor-key is not set")).strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("ziggurat.directory.factor-key is not base64", e);
        }
        if (key.length != 32) {
            throw new IllegalStateException("ziggurat.directory.factor-key must be 32 bytes, base64; it is " + key.length);
        }
        this.sealKey = new SecretKeySpec(derive(key, "totp-seal"), "AES");
        this.recoveryKey = new SecretKeySpec(derive(key, "recovery-code"), "HmacSHA256");
    }

    private static byte[] derive(byte[] key, String use) {
        return hmac(new SecretKeySpec(key, "HmacSHA256"), use.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] hmac(SecretKeySpec key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Fresh random bytes (a new TOTP key). */
    public byte[] randomBytes(int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    /** A TOTP key sealed for one person: nonce, then ciphertext and tag. */
    public byte[] seal(long personId, byte[] secret) {
        byte[] nonce = randomBytes(NONCE_BYTES);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, sealKey, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(personAad(personId));
            byte[] sealed = cipher.doFinal(secret);
            return ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The key sealed for this person; fails when it was sealed for another, or under another factor key. */
    public byte[] open(long personId, byte[] sealed) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, sealKey, new GCMParameterSpec(TAG_BITS, sealed, 0, NONCE_BYTES));
            cipher.updateAAD(personAad(personId));
            return cipher.doFinal(sealed, NONCE_BYTES, sealed.length - NONCE_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("a TOTP key does not open with this factor key", e);
        }
    }

    private static byte[] personAad(long personId) {
        return ByteBuffer.allocate(Long.BYTES).putLong(personId).array();
    }

    /** The stored form of a recovery code ({@link RecoveryCodeRules#normalized} form), for one person. */
    public byte[] recoveryHash(long personId, String normalizedCode) {
        byte[] person = personAad(personId);
        byte[] code = normalizedCode.getBytes(StandardCharsets.US_ASCII);
        byte[] data = Arrays.copyOf(person, person.length + code.length);
        System.arraycopy(code, 0, data, person.length, code.length);
        return hmac(recoveryKey, data);
    }
}
