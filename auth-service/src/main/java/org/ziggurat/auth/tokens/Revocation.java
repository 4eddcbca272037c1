package org.ziggurat.auth.tokens;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.clients.ClientAuthenticator;
import org.ziggurat.auth.clients.ClientCredentials;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.oauth.OAuthException;

/**
 * RFC 7009: a client, or a bearer token's person and client, revokes a token of its own. A refresh
 * token takes its whole authorization with it; an access token goes alone.
 */
@ApplicationScoped
public class Revocation {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final TokenRepository tokens;
    private final TokenCrypto crypto;
    private final ClientAuthenticator clients;
    private final LiveAccessTokens liveTokens;

    Revocation(TokenRepository tokens, TokenCrypto crypto, ClientAuthenticator clients, LiveAccessTokens liveTokens) {
        this.tokens = tokens;
        this.crypto = crypto;
        this.clients = clients;
        this.liveTokens = liveTokens;
    }

    /** Who revokes (RFC 7009): a client (no person), or a bearer token's person and client. */
    record Revoker(Long applicationId, Long personId) {
    }

    /**
     * How many tokens the request revoked: the caller is the client its credentials name, else the
     * client and person of a live bearer token. Unknown, foreign or already revoked tokens revoke
     * nothing, which the endpoint does not tell.
     */
    public Uni<Integer> revoke(ClientCredentials.Claimed claimed, String bearer, String token) {
        return revoker(claimed, bearer).chain(revoker -> revoke(revoker, token));
    }

    private Uni<Revoker> revoker(ClientCredentials.Claimed claimed, String bearer) {
        if (claimed != null) {
            return clients.authenticate(claimed).map(app -> new Revoker(app.id(), null));
        }
        if (bearer == null) {
            throw OAuthException.invalidClient("Client credentials or a bearer token are required.");
        }
        return liveTokens.bearer(bearer).map(row -> {
            if (row == null) {
                throw OAuthException.invalidClient("The bearer token is not valid.");
            }
            return new Revoker(row.applicationId(), row.personId());
        });
    }

    private Uni<Integer> revoke(Revoker revoker, String token) {
        return tokens.byHash(crypto.hash(token)).chain(row -> {
            if (row == null || row.revokedAt() != null || !TokenRules.mayRevoke(revoker.applicationId(), revoker.personId(), row)) {
                return Uni.createFrom().item(0);
            }
            return (row.isAccess() ? tokens.revokeOne(row.id()) : tokens.revokeFamily(row.family()))
                    .invoke(count -> EVENTS.infof("event=token_revoked client_id=%s person_id=%s kind=%s revoked=%d",
                            row.clientId(), row.personId(), row.isAccess() ? "access" : "refresh", count));
        });
    }
}
