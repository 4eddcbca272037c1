package org.ziggurat.auth.grants;

import java.util.Optional;

/**
 * What an application may read of the person's dealings with one application, in particular
 * {@code /authorizations/clients/:client_id}, which answers the live token value (spec 4.1,
 * "the 20-character client id of the requesting OAuth app"). A token issued to another
 * application speaks for that application only: read with it, one application would take the
 * tokens of every other one the person uses.
 */
public final class ClientBoundReads {

    private ClientBoundReads() {
    }

    /**
     * True for the person's own token (issued without a client, by the password grant) and for a
     * token of the application named; false for a token of any other application.
     */
    public static boolean mayRead(Optional<String> tokenClientId, String clientId) {
        return tokenClientId.isEmpty() || tokenClientId.get().equals(clientId);
    }
}
