package org.ziggurat.auth.granttypes;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.clients.ApplicationRow;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.oauth.IssuedTokens;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.OAuthForm;
import org.ziggurat.auth.oauth.Scopes;
import org.ziggurat.auth.tokens.TokenIssuer;
import org.ziggurat.auth.tokens.TokenRepository;
import org.ziggurat.auth.tokens.TokenRules;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;

import static org.ziggurat.auth.tokens.TokenIssuer.clientIdOf;

/**
 * refresh_token (RFC 6749 §6): rotation on every use, in one statement (TokenRepository#rotate). A
 * refresh token presented after it was rotated is taken as stolen: its whole family is revoked
 * (RFC 9700 §4.14.2). A refusal for another client or for wider scopes leaves it unused. Without
 * a client: a refresh token of the client-less password grant; a client's own needs that client.
 */
@ApplicationScoped
public class RefreshTokenGrant implements TokenGrant {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final TokenRepository tokens;
    private final TokenCrypto crypto;
    private final AuthConfig config;
    private final TokenIssuer issuer;

    RefreshTokenGrant(TokenRepository tokens, TokenCrypto crypto, AuthConfig config, TokenIssuer issuer) {
        this.tokens = tokens;
        this.crypto = crypto;
        this.config = config;
        this.issuer = issuer;
    }

    @Override
    public String grantType() {
        return "refresh_token";
    }

    @Override
    public boolean clientOptional() {
        return true;
    }

    @Override
    public Issuing read(OAuthForm form, String callerAddress) {
        String refreshToken = form.require("refresh_token");
        Set<String> scopes = Scopes.parse(form.get("scope"));
        return client -> refresh(client, refreshToken, scopes);
    }

    Uni<IssuedTokens> refresh(ApplicationRow clientOrNull, String refreshToken, Set<String> requested) {
        byte[] hash = crypto.hash(refreshToken);
        String access = crypto.newAccessToken();
        String refresh = crypto.newRefreshToken();
        Instant now = Instant.now();
        TokenRepository.Rotation rotation = new TokenRepository.Rotation(hash, clientOrNull == null ? null : clientOrNull.id(),
                requested.isEmpty() ? null : List.copyOf(requested), crypto.hash(access), crypto.encrypt(access),
                OffsetDateTime.ofInstant(now.plus(config.accessTokenLifetime()), ZoneOffset.UTC), crypto.hash(refresh),
                OffsetDateTime.ofInstant(now.plus(config.refreshTokenLifetime()), ZoneOffset.UTC));
        return tokens.rotate(rotation)
                .chain(rotated -> rotated == null ? refused(hash, clientOrNull, requested)
                        // Core §12.2: the ID token of a refresh carries the first sign-in's auth_time, amr and acr, no nonce.
                        : issuer.withIdToken(new IssuedTokens(rotated.accessTokenId(), access, refresh,
                                config.accessTokenLifetime().toSeconds(), rotated.scopes(), now.getEpochSecond()),
                                clientOrNull, rotated.personId(), rotated.authTime(), null, rotated.amr()))
                // Routine and frequent, and recorded in the token table itself: DEBUG, where
                // sign-ins (code and password grants) and every refusal stay at INFO.
                .invoke(issued -> EVENTS.debugf("event=token_refreshed client_id=%s", clientIdOf(clientOrNull)));
    }

    /** Why a refresh token rotated nothing, read after the fact; a reuse revokes its family. */
    private Uni<IssuedTokens> refused(byte[] hash, ApplicationRow clientOrNull, Set<String> requested) {
        Long clientId = clientOrNull == null ? null : clientOrNull.id();
        return tokens.byHash(hash).chain(row -> switch (TokenRules.refreshRefusal(row, clientId, requested, Instant.now())) {
            case REUSED -> tokens.revokeFamily(row.family()).invoke(count -> EVENTS.warnf(
                            "event=refresh_token_reuse client_id=%s person_id=%s revoked_tokens=%d",
                            clientIdOf(clientOrNull), row.personId(), count))
                    .chain(count -> Uni.createFrom().failure(OAuthException.invalidGrant(
                            "The refresh token was used already; the authorization is revoked.")));
            case CLIENT_MUST_AUTHENTICATE -> Uni.createFrom().failure(OAuthException.invalidClient(
                    "This refresh token was issued to a client: the client must authenticate."));
            case OTHER_CLIENT -> Uni.createFrom().failure(OAuthException.invalidGrant("The refresh token was issued to another client."));
            case WIDENS_SCOPES -> Uni.createFrom().failure(OAuthException.invalidScope("A refresh may not widen the scopes of the grant."));
            case INVALID -> Uni.createFrom().failure(OAuthException.invalidGrant("The refresh token is not valid."));
        });
    }
}
