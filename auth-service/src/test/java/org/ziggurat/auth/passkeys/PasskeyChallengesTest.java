package org.ziggurat.auth.passkeys;

import org.junit.jupiter.api.Test;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.crypto.TokenCrypto;

import java.lang.reflect.Proxy;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A challenge is good for its ceremony and person, unaltered, until it expires. */
class PasskeyChallengesTest {

    static TokenCrypto crypto(String hashKey) {
        AuthConfig config = (AuthConfig) Proxy.newProxyInstance(AuthConfig.class.getClassLoader(), new Class<?>[] {AuthConfig.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "tokenHashKey" -> hashKey;
                    case "tokenEncryptionKey" -> "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        return new TokenCrypto(config);
    }

    final PasskeyChallenges challenges = new PasskeyChallenges(crypto("a2V5LW9mLXRoZS10ZXN0cy0zMi1ieXRlcy1sb25nISE="), null);

    @Test
    void goodForItsCeremonyAndPersonUntilItExpires() {
        Instant now = Instant.parse("2026-11-27T12:00:00Z");
        byte[] challenge = challenges.issue(PasskeyChallenges.Ceremony.REGISTER, 42, now);
        assertTrue(challenges.valid(challenge, PasskeyChallenges.Ceremony.REGISTER, 42, now.plusSeconds(60)));
        assertFalse(challenges.valid(challenge, PasskeyChallenges.Ceremony.REGISTER, 43, now), "another person's");
        assertFalse(challenges.valid(challenge, PasskeyChallenges.Ceremony.SIGN_IN, 42, now), "another ceremony's");
        assertFalse(challenges.valid(challenge, PasskeyChallenges.Ceremony.REGISTER, 42,
                now.plus(PasskeyChallenges.LIFETIME)), "expired");
    }

    @Test
    void anAlteredOrForeignChallengeIsRefused() {
        Instant now = Instant.parse("2026-11-27T12:00:00Z");
        byte[] challenge = challenges.issue(PasskeyChallenges.Ceremony.SIGN_IN, 0, now);
        byte[] later = challenge.clone();
        later[PasskeyChallenges.NONCE + 7] += 100; // a later expiry, without the key to sign it
        assertFalse(challenges.valid(later, PasskeyChallenges.Ceremony.SIGN_IN, 0, now));
        PasskeyChallenges other = new PasskeyChallenges(crypto("YW5vdGhlci1rZXktMzItYnl0ZXMtbG9uZy1mb3ItdGVzdA=="), null);
        assertFalse(other.valid(challenge, PasskeyChallenges.Ceremony.SIGN_IN, 0, now), "another server's key");
        assertFalse(challenges.valid(new byte[10], PasskeyChallenges.Ceremony.SIGN_IN, 0, now));
        assertFalse(challenges.valid(null, PasskeyChallenges.Ceremony.SIGN_IN, 0, now));
    }
}
