package org.ziggurat.events.webhooks;

import jakarta.enterprise.context.ApplicationScoped;

import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;

/**
 * The subscriptions' secrets and the Standard Webhooks signatures made with them. A secret is
 * {@code whsec_} and 32 random bytes in base64, shown once when made; the bytes are the HMAC key.
 * At rest it is sealed with AES-GCM under the operator's key, as it must be read to sign.
 */
@ApplicationScoped
public class WebhookSecrets {

    static final String PREFIX = "whsec_";
    private static final int SECRET_BYTES = 32;
    private static final int NONCE_BYTES = 12;

    private final SecureRandom random = new SecureRandom();
    private final SecretKeySpec sealingKey;

    WebhookSecrets(WebhookSettings settings) {
        // Production never gets here without one (WebhookSettingsCheck).
        String base64 = settings.secretKey().orElseThrow(
                () -> new IllegalStateException("ziggurat.events.webhooks.secret-key is required (32 bytes, base64)"));
        byte[] key = Base64.getDecoder().decode(base64.trim());
        if (key.length != 32) {
            throw new IllegalStateException("ziggurat.events.webhooks.secret-key must be 32 bytes (base64)");
        }
        this.sealingKey = new SecretKeySpec(key, "AES");
    }

    /** A new secret, as shown once to its subscriber. */
    public String generate() {
        byte[] bytes = new byte[SECRET_BYTES];
        random.nextBytes(bytes);
        return PREFIX + Base64.getEncoder().encodeToString(bytes);
    }

    public byte[] seal(String secret) {
        try {
            byte[] nonce = new byte[NONCE_BYTES];
            random.nextBytes(nonce);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, sealingKey, new GCMParameterSpec(128, nonce));
            byte[] sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed", e);
        }
    }

    public String open(byte[] sealed) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, sealingKey, new GCMParameterSpec(128, sealed, 0, NONCE_BYTES));
            return new String(cipher.doFinal(sealed, NONCE_BYTES, sealed.length - NONCE_BYTES), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed: the sealing key changed, or the secret was altered", e);
        }
    }

    /**
     * The {@code webhook-signature} header: {@code v1,} and the base64 HMAC-SHA256 of
     * {@code id.timestamp.body} under each secret (the newest first), space-separated.
     */
    public static String signature(String id, long timestamp, byte[] body, List<String> secrets) {
        StringBuilder header = new StringBuilder();
        for (String secret : secrets) {
            try {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring(PREFIX.length())), "HmacSHA256"));
                mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
                byte[] signed = mac.doFinal(body);
                header.append(header.length() == 0 ? "" : " ").append("v1,").append(Base64.getEncoder().encodeToString(signed));
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("HMAC-SHA256 failed", e);
            }
        }
        return header.toString();
    }
}
