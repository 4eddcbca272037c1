package org.ziggurat.auth.passkeys;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.passkeys.TestAuthenticator.BE;
import static org.ziggurat.auth.passkeys.TestAuthenticator.UP;
import static org.ziggurat.auth.passkeys.TestAuthenticator.UV;

/** The assertion checks: each refuses what it must (bad origin, challenge, key, counter, missing verification). */
class PasskeyVerifierTest {

    static final String RP = "id.example.org";
    static final String ORIGIN = "https://id.example.org";
    static final PasskeyVerifier.RelyingParty PARTY = new PasskeyVerifier.RelyingParty(RP, Set.of(ORIGIN));
    static final byte[] CHALLENGE = "a challenge of the server".getBytes();
    static final byte[] USER = {0, 0, 0, 0, 0, 0, 0, 42};

    final TestAuthenticator authenticator;

    PasskeyVerifierTest() throws Exception {
        authenticator = new TestAuthenticator(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
    }

    PasskeyVerifier.Asserted verify(String json, long stored, boolean uvRequired) {
        var data = PasskeyVerifier.parseAssertion(json);
        return PasskeyVerifier.verifyAssertion(data, PARTY, CHALLENGE, authenticator.coseKey(), stored, true, false, uvRequired);
    }

    @Test
    void aGoodAssertionPasses() throws Exception {
        var asserted = verify(authenticator.assertion(RP, ORIGIN, CHALLENGE, UP | UV, 7, USER), 6, true);
        assertEquals(7, asserted.signCount());
        assertTrue(asserted.userVerified());
        assertArrayEquals(USER, asserted.userHandle());
        assertArrayEquals(authenticator.credentialId, asserted.credentialId());
        assertArrayEquals(CHALLENGE, PasskeyVerifier.challengeOf(PasskeyVerifier.parseAssertion(
                authenticator.assertion(RP, ORIGIN, CHALLENGE, UP | UV, 7, USER))));
    }

    @Test
    void anotherOriginIsRefused() throws Exception {
        assertThrows(PasskeyVerifier.PasskeyRefused.class,
                () -> verify(authenticator.assertion(RP, "https://id.example.org.evil.test", CHALLENGE, UP | UV, 7, USER), 6, true));
    }

    @Test
    void anotherRelyingPartyIsRefused() throws Exception {
        assertThrows(PasskeyVerifier.PasskeyRefused.class,
                () -> verify(authenticator.assertion("evil.test", ORIGIN, CHALLENGE, UP | UV, 7, USER), 6, true));
    }

    @Test
    void anotherChallengeIsRefused() throws Exception {
        assertThrows(PasskeyVerifier.PasskeyRefused.class,
                () -> verify(authenticator.assertion(RP, ORIGIN, "another challenge".getBytes(), UP | UV, 7, USER), 6, true));
    }

    @Test
    void aCounterThatDoesNotMoveForwardIsRefused() throws Exception {
        assertThrows(PasskeyVerifier.PasskeyRefused.class,
                () -> verify(authenticator.assertion(RP, ORIGIN, CHALLENGE, UP | UV, 5, USER), 6, true));
        assertThrows(PasskeyVerifier.PasskeyRefused.class,
                () -> verify(authenticator.assertion(RP, ORIGIN, CHALLENGE, UP | UV, 6, USER), 6, true));
        // An authenticator that keeps no counter says 0, always.
        assertEquals(0, verify(authenticator.assertion(RP, ORIGIN, CHALLENGE, UP | UV, 0, USER), 0, true).signCount());
    }

    @Test
    void userVerificationIsRequiredWhenAsked() throws Exception {
        String presenceOnly = authenticator.assertion(RP, ORIGIN, CHALLENGE, UP, 7, USER);
        assertThrows(PasskeyVerifier.PasskeyRefused.class, () -> verify(presenceOnly, 6, true));
        assertEquals(7, verify(presenceOnly, 6, false).signCount(), "as a second factor after the password, presence is enough");
        assertThrows(PasskeyVerifier.PasskeyRefused.class,
                () -> verify(authenticator.assertion(RP, ORIGIN, CHALLENGE, UV, 7, USER), 6, false), "never without presence");
    }

    @Test
    void anotherKeysSignatureIsRefused() throws Exception {
        TestAuthenticator other = new TestAuthenticator(authenticator.credentialId);
        assertThrows(PasskeyVerifier.PasskeyRefused.class,
                () -> verify(other.assertion(RP, ORIGIN, CHALLENGE, UP | UV | BE, 7, USER), 6, true));
    }

    @Test
    void whatIsNoAssertionIsRefused() {
        assertThrows(PasskeyVerifier.PasskeyRefused.class, () -> PasskeyVerifier.parseAssertion("{}"));
        assertThrows(PasskeyVerifier.PasskeyRefused.class, () -> PasskeyVerifier.parseAssertion("not json"));
        assertThrows(PasskeyVerifier.PasskeyRefused.class, () -> PasskeyVerifier.parseRegistration("{\"id\":\"AQ\"}"));
    }
}
