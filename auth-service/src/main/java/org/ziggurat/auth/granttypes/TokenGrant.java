package org.ziggurat.auth.granttypes;

import io.smallrye.mutiny.Uni;
import org.ziggurat.auth.clients.ApplicationRow;
import org.ziggurat.auth.oauth.IssuedTokens;
import org.ziggurat.auth.oauth.OAuthForm;
import org.ziggurat.auth.tokens.TokenRequest;

/**
 * One grant type of the token endpoint (RFC 6749 §4, RFC 8628 §3.4). {@link TokenGrants} finds the
 * handler by {@code grant_type}, authenticates the client and checks that it may use the grant;
 * the handler reads its parameters and issues. A new grant is a new class, not a new case.
 */
public interface TokenGrant {

    /** The {@code grant_type} this handles. */
    String grantType();

    /**
     * Whether a request without client credentials may use the grant: the spec's client-less
     * password grant, and the refresh of its tokens. Any other grant needs a client.
     */
    default boolean clientOptional() {
        return false;
    }

    /**
     * The grant's parameters, read and checked before any client is authenticated (a missing one
     * is invalid_request whoever asks); then what issues the tokens for the client.
     */
    Issuing read(OAuthForm form, String callerAddress);

    /**
     * The second half of a grant: tokens for the authenticated client (null when it has none), with
     * what the request names besides the grant (resources, its DPoP key), checked.
     */
    @FunctionalInterface
    interface Issuing {
        Uni<IssuedTokens> forClient(ApplicationRow clientOrNull, TokenRequest request);
    }
}
