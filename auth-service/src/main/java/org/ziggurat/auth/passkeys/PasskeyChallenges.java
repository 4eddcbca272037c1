package org.ziggurat.auth.passkeys;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.crypto.TokenCrypto;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;

/**
 * WebAuthn challenges without state until they are used: 16 random bytes, when it expires, and a
 * MAC under the server's key over both, the ceremony and the person it is for. A page can offer
 * one on a GET without writing anything; the POST that answers it checks the MAC and the time,
 * and records its use once ({@link PasskeyChallengeRepository}), so that an answer is never
 * accepted twice, on any replica.
 */
@ApplicationScoped
public class PasskeyChallenges {

    public static final Duration LIFETIME = Duration.ofMinutes(5);
    static final int NONCE = 16;
    static final int MAC = 16;

    /**
     * What a challenge is for: adding a passkey (for one person), signing in with one alone, as the
     * second factor after the password, or confirming who one is again before a change ("sudo").
     */
    public enum Ceremony { REGISTER, SIGN_IN, SECOND_FACTOR, SUDO }

    private final TokenCrypto crypto;
    private final PasskeyChallengeRepository used;
    private final SecureRandom random = new SecureRandom();

    PasskeyChallenges(TokenCrypto crypto, PasskeyChallengeRepository used) {
        this.crypto = crypto;
        this.used = used;
    }

    /** A new challenge for the ceremony and person ({@code 0} when none is known yet). */
    public byte[] issue(Ceremony ceremony, long personId) {
        return issue(ceremony, personId, Instant.now());
    }

    byte[] issue(Ceremony ceremony, long personId, Instant now) {
        byte[] nonce = new byte[NONCE];
        random.nextBytes(nonce);
        ByteBuffer body = ByteBuffer.allocate(NONCE + Long.BYTES).put(nonce).putLong(now.plus(LIFETIME).getEpochSecond());
        byte[] mac = mac(ceremony, personId, body.array());
        return ByteBuffer.allocate(NONCE + Long.BYTES + MAC).put(body.array()).put(mac).array();
    }

    /** Whether the challenge is one of ours, for this ceremony and person, and not expired. */
    public boolean valid(byte[] challenge, Ceremony ceremony, long personId, Instant now) {
        if (challenge == null || challenge.length != NONCE + Long.BYTES + MAC) {
            return false;
        }
        byte[] body = Arrays.copyOf(challenge, NONCE + Long.BYTES);
        byte[] mac = Arrays.copyOfRange(challenge, NONCE + Long.BYTES, challenge.length);
        long expires = ByteBuffer.wrap(body, NONCE, Long.BYTES).getLong();
        return MessageDigest.isEqual(mac, mac(ceremony, personId, body)) && now.getEpochSecond() < expires;
    }

    /** Records the challenge's use: true the first time, on any replica; false after. */
    public Uni<Boolean> use(byte[] challenge) {
        return used.firstUse(crypto.hash(Base64.getUrlEncoder().withoutPadding().encodeToString(challenge)), LIFETIME);
    }

    private byte[] mac(Ceremony ceremony, long personId, byte[] body) {
        byte[] full = crypto.hash("webauthn|" + ceremony + "|" + personId + "|"
                + Base64.getUrlEncoder().withoutPadding().encodeToString(body));
        return Arrays.copyOf(full, MAC);
    }
}
