package org.ziggurat.auth.crypto;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.ziggurat.auth.AuthConfig;

import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The secrets of the OAuth server: random token values (256 bits) with a recognisable prefix,
 * their keyed hashes (HMAC-SHA256, the only form the database can look them up by), and AES-GCM
 * encryption for the one value the spec shows again (an authorization's access token).
 */
@ApplicationScoped
public class TokenCrypto {

    public static final String ACCESS_PREFIX = "zat_";
    public static final String REFRESH_PREFIX = "zrt_";
    public static final String CODE_PREFIX = "zac_";
    public static final String SECRET_PREFIX = "zcs_";
    public static final String SESSION_PREFIX = "zls_";
    /** A sign-in between the password and the second factor. */
    public static final String PENDING_SIGN_IN_PREFIX = "zps_";
    public static final String DEVICE_CODE_PREFIX = "zdc_";
    public static final String REGISTRATION_TOKEN_PREFIX = "zrg_";

    private static final String CLIENT_ID_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    private static final int GCM_NONCE = 12;
    private static final int GCM_TAG_BITS = 128;

    /**
     * One DRBG (NIST SP 800-90A, seeded and reseeded by the JDK) per thread. The default
     * NativePRNG reads /dev/urandom under one lock shared by every thread: a system call and a
     * contended lock twice per issued token (its value and its encryption nonce).
     */
    private final ThreadLocal<SecureRandom> randoms = ThreadLocal.withInitial(TokenCrypto::drbg);
    /** AES-GCM per thread: initialised again for every nonce, but without a provider look-up and key expansion each time. */
    private final ThreadLocal<Cipher> ciphers = ThreadLocal.withInitial(() -> {
        try {
            return Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    });
    private final SecretKeySpec hashKey;
    private final SecretKeySpec encryptionKey;
    private final ThreadLocal<Mac> macs;

    @Inject
    public TokenCrypto(AuthConfig config) {
        byte[] hk = decodeKey(config.tokenHashKey(), "ziggurat.auth.token-hash-key");
        byte[] ek = decodeKey(config.tokenEncryptionKey(), "ziggurat.auth.token-encryption-key");
        if (ek.length != 32) {
            throw new IllegalStateException("ziggurat.auth.token-encryption-key must be 32 bytes (base64)");
        }
        hashKey = new SecretKeySpec(hk, "HmacSHA256");
        encryptionKey = new SecretKeySpec(ek, "AES");
        macs = ThreadLocal.withInitial(() -> {
            try {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(hashKey);
                return mac;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    public String newAccessToken() {
        return ACCESS_PREFIX + randomToken(32);
    }

    public String newRefreshToken() {
        return REFRESH_PREFIX + randomToken(32);
    }

    public String newCode() {
        return CODE_PREFIX + randomToken(32);
    }

    public String newClientSecret() {
        return SECRET_PREFIX + randomToken(32);
    }

    public String newSession() {
        return SESSION_PREFIX + randomToken(32);
    }

    public String newPendingSignIn() {
        return PENDING_SIGN_IN_PREFIX + randomToken(32);
    }

    /** RFC 7592's registration access token: manages one registered client, nothing else. */
    public String newRegistrationToken() {
        return REGISTRATION_TOKEN_PREFIX + randomToken(32);
    }

    public String newDeviceCode() {
        return DEVICE_CODE_PREFIX + randomToken(32);
    }

    /** {@code length} characters of {@code alphabet}, each drawn at random (the device flow's user codes). */
    public String randomString(String alphabet, int length) {
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            out.append(alphabet.charAt(randoms.get().nextInt(alphabet.length())));
        }
        return out.toString();
    }

    public String newCsrfToken() {
        return randomToken(24);
    }

    /** 20 characters of [A-Za-z0-9]: about 119 bits, though a client id is not a secret. */
    public String newClientId() {
        return randomString(CLIENT_ID_ALPHABET, 20);
    }

    /** The look-up form of a secret value. */
    public byte[] hash(String value) {
        return macs.get().doFinal(value.getBytes(StandardCharsets.UTF_8));
    }

    /** Constant-time comparison of a presented secret with a stored hash. */
    /** Two values the same, in time that does not tell how much of them matched (CSRF tokens); false if either is null. */
    public static boolean sameValue(String a, String b) {
        return a != null && b != null && MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    public boolean matches(String presented, byte[] storedHash) {
        return presented != null && storedHash != null && MessageDigest.isEqual(hash(presented), storedHash);
    }

    public byte[] encrypt(String value) {
        try {
            byte[] nonce = new byte[GCM_NONCE];
            randoms.get().nextBytes(nonce);
            Cipher cipher = ciphers.get();
            cipher.init(Cipher.ENCRYPT_MODE, encryptionKey, new GCMParameterSpec(GCM_TAG_BITS, nonce));
            byte[] sealed = cipher.doFinal(value.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.allocate(nonce.length + sealed.length).put(nonce).put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed", e);
        }
    }

    public String decrypt(byte[] stored) {
        try {
            Cipher cipher = ciphers.get();
            cipher.init(Cipher.DECRYPT_MODE, encryptionKey, new GCMParameterSpec(GCM_TAG_BITS, stored, 0, GCM_NONCE));
            return new String(cipher.doFinal(stored, GCM_NONCE, stored.length - GCM_NONCE), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed: the key changed, or the value was altered", e);
        }
    }

    private static SecureRandom drbg() {
        try {
            return SecureRandom.getInstance("DRBG");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no DRBG", e);
        }
    }

    private String randomToken(int bytes) {
        byte[] b = new byte[bytes];
        randoms.get().nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    private static byte[] decodeKey(String base64, String name) {
        byte[] key;
        try {
            key = Base64.getDecoder().decode(base64.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(name + " is not base64");
        }
        if (key.length < 32) {
            throw new IllegalStateException(name + " must hold at least 32 bytes");
        }
        return key;
    }
}
