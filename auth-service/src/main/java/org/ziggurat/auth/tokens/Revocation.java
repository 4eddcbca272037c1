package org.ziggurat.auth.tokens;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.crypto.TokenCrypto;

/**
 * RFC 7009: a client, or a bearer token's person and client, revokes a token of its own. A refresh
 * token takes its whole authorization with it; an access token goes alone.
 */
@ApplicationScoped
public class Revocation {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final TokenRepository tokens;
    private final TokenCrypto crypto;

    Revocation(TokenRepository tokens, TokenCrypto crypto) {
        this.tokens = tokens;
        this.crypto = crypto;
    }

    /** Who revokes (RFC 7009): a client (no person), or a bearer token's person and client. */
    public record Revoker(Long applicationId, Long personId) {
    }

    /**
     * How many tokens the revoker's request revoked. Unknown, foreign or already revoked tokens
     * revoke nothing, which the endpoint does not tell.
     */
    public Uni<Integer> revoke(Revoker revoker, String token) {
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
