package org.ziggurat.auth.grants;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rules of grants and authorizations, without HTTP. */
class GrantRulesTest {

    @Test
    void anApplicationsAuthorizationIsReadByThePersonsOwnTokenOrOneOfThatApplication() {
        assertTrue(ClientBoundReads.mayRead(Optional.empty(), "ClientA0000000000000"));
        assertTrue(ClientBoundReads.mayRead(Optional.of("ClientA0000000000000"), "ClientA0000000000000"));
        assertFalse(ClientBoundReads.mayRead(Optional.of("ClientB0000000000000"), "ClientA0000000000000"));
        // Client ids are compared exactly: one that differs in case is another client.
        assertFalse(ClientBoundReads.mayRead(Optional.of("clienta0000000000000"), "ClientA0000000000000"));
    }
}
