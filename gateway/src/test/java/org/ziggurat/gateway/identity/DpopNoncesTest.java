package org.ziggurat.gateway.identity;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The nonces a replica issues and the first uses it remembers, on a clock the test moves. */
class DpopNoncesTest {

    static final String SECRET = "a-gateway-secret-0123456789abcdef";

    /** A clock that stays where the test puts it. */
    static final class MovableClock extends Clock {
        final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-11-29T10:00:00Z"));

        void advance(Duration by) {
            now.updateAndGet(t -> t.plus(by));
        }

        @Override
        public Instant instant() {
            return now.get();
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    static DpopNonces replica(MovableClock clock, String address) {
        DpopNonces nonces = new DpopNonces(SECRET, 60, clock);
        nonces.issueAs(address);
        return nonces;
    }

    @Test
    void aNonceNamesItsIssuerAndIsGoodForItsLifetimeOnly() {
        MovableClock clock = new MovableClock();
        DpopNonces one = replica(clock, "10.0.0.1:8091");
        DpopNonces two = replica(clock, "10.0.0.2:8091");
        String nonce = one.current();
        assertEquals(nonce, one.current(), "one nonce per step");
        DpopNonces.Nonce readAtTwo = two.read(nonce);
        assertNotNull(readAtTwo, "every replica reads every replica's nonces");
        assertEquals("10.0.0.1:8091", readAtTwo.issuer());
        assertTrue(one.mine(one.read(nonce)));
        assertFalse(two.mine(readAtTwo));

        clock.advance(Duration.ofSeconds(DpopNonces.STEP_SECONDS));
        assertNotEquals(nonce, one.current(), "a new one each step");
        assertNotNull(one.read(nonce), "the older still good");
        clock.advance(Duration.ofSeconds(60 - DpopNonces.STEP_SECONDS));
        assertNull(one.read(nonce), "expired");
        assertNull(two.read(nonce), "expired");
    }

    @Test
    void aNonceOfAnotherSecretOrAlteredIsNone() {
        MovableClock clock = new MovableClock();
        String nonce = replica(clock, "10.0.0.1:8091").current();
        DpopNonces stranger = new DpopNonces("another-secret-0123456789abcdef", 60, clock);
        stranger.issueAs("10.0.0.1:8091");
        assertNull(stranger.read(nonce));
        char[] altered = nonce.toCharArray();
        altered[5] = altered[5] == 'A' ? 'B' : 'A';
        assertNull(replica(clock, "10.0.0.1:8091").read(new String(altered)));
        assertNull(stranger.read("not a nonce"));
        assertNull(stranger.read(null));
    }

    @Test
    void theIssuerRemembersEachProofForItsNoncesLifetimeAndForgetsAfterARestart() {
        MovableClock clock = new MovableClock();
        DpopNonces one = replica(clock, "10.0.0.1:8091");
        DpopNonces.Nonce nonce = one.read(one.current());
        assertEquals(true, one.firstUse(nonce.epoch(), nonce.issuedAt(), "jkt", "jti-1"));
        assertEquals(false, one.firstUse(nonce.epoch(), nonce.issuedAt(), "jkt", "jti-1"), "a replay");
        assertEquals(true, one.firstUse(nonce.epoch(), nonce.issuedAt(), "another-jkt", "jti-1"), "another key's");
        clock.advance(Duration.ofSeconds(59));
        // Other steps' sets come and go; this nonce's stays while it is good.
        for (int i = 0; i < 5; i++) {
            DpopNonces.Nonce later = one.read(one.current());
            one.firstUse(later.epoch(), later.issuedAt(), "jkt", "jti-" + i + "-later");
        }
        assertEquals(false, one.firstUse(nonce.epoch(), nonce.issuedAt(), "jkt", "jti-1"), "still a replay");
        clock.advance(Duration.ofSeconds(1));
        assertNull(one.firstUse(nonce.epoch(), nonce.issuedAt(), "jkt", "jti-1"), "the nonce expired: nothing known");

        // A space in a jti (the set's entries were 'jkt jti') neither merges two keys' proofs nor
        // makes a replay new; however long the jti, an entry is a digest of one size.
        assertEquals(true, one.firstUse(nonce.epoch(), clock.instant().getEpochSecond(), "A B", "C"));
        assertEquals(true, one.firstUse(nonce.epoch(), clock.instant().getEpochSecond(), "A", "B C"), "another key's proof");
        assertEquals(false, one.firstUse(nonce.epoch(), clock.instant().getEpochSecond(), "A", "B C"));
        assertEquals(DpopNonces.proofKey("j", "x").length(), DpopNonces.proofKey("j", "x".repeat(4000)).length());

        // The same address after a restart: another run, whose nonces the old ones are not.
        DpopNonces restarted = replica(clock, "10.0.0.1:8091");
        DpopNonces.Nonce old = one.read(one.current());
        assertFalse(restarted.mine(restarted.read(one.current())));
        assertNull(restarted.firstUse(old.epoch(), old.issuedAt(), "jkt", "jti-2"));
    }
}
