package org.ziggurat.gateway.identity;

import io.quarkus.oidc.OIDCException;
import io.quarkus.security.AuthenticationFailedException;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A token refused (401, remembered as inactive) against a token that could not be checked (503,
 * forgotten), as quarkus-oidc 3.27 reports them: its judgments of a token are authentication
 * failures with a message and no cause; a failure of the introspection call itself is the cause of
 * one, whatever it is.
 */
class IntrospectionFailuresTest {

    @Test
    void aJudgmentOfTheTokenIsNoOutage() {
        assertFalse(Identities.introspectionUnavailable(new AuthenticationFailedException("Token issued to client x is not active",
                Map.of())));
        assertFalse(Identities.introspectionUnavailable(new AuthenticationFailedException("not an access token")));
        // The token's age, checked after the answer: the age check's own failure as the cause.
        assertFalse(Identities.introspectionUnavailable(new AuthenticationFailedException(
                new AuthenticationFailedException("Token age exceeds the configured token age property"), Map.of())));
    }

    @Test
    void aFailedCallIsAnOutageWhateverItsCause() {
        assertTrue(Identities.introspectionUnavailable(new AuthenticationFailedException(new OIDCException("500"), Map.of())));
        assertTrue(Identities.introspectionUnavailable(new AuthenticationFailedException(new ConnectException("refused"), Map.of())));
        // A connection closed under the request surfaces from quarkus-oidc's client without its cause.
        assertTrue(Identities.introspectionUnavailable(new AuthenticationFailedException(new NullPointerException(), Map.of())));
    }
}
