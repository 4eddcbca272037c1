package org.ziggurat.auth.tokens;

import io.vertx.pgclient.PgException;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.Issuer;
import org.ziggurat.auth.oauth.IdTokenClaims;
import org.ziggurat.auth.clients.ApplicationRow;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.directory.client.DirectoryClient;
import org.ziggurat.auth.oauth.IssuedTokens;
import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.Pkce;
import org.ziggurat.auth.oauth.Scopes;
import org.ziggurat.auth.oauth.UserCodes;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The grants of the token endpoint. Every token and code is stored as a keyed hash; security
 * events (issue, refresh reuse, code replay) are logged with client and person ids, never a value.
 */
@ApplicationScoped
public class TokenService {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    @Inject
    Pool pool;

    @Inject
    TokenRepository tokens;

    @Inject
    TokenCrypto crypto;

    @Inject
    AuthConfig config;

    @Inject
    @RestClient
    DirectoryClient directory;

    @Inject
    ConsentRepository consents;

    @Inject
    IdTokens idTokens;

    @Inject
    DeviceAuthorizationRepository devices;

    /** What the device authorization endpoint answers (RFC 8628 §3.2): values in clear, once. */
    public record DeviceStarted(String deviceCode, String userCode, long expiresIn, long interval) {
    }

    /** Seconds a client at its cap of live device codes or pushed requests is asked to wait. */
    public static final long LIVE_CAP_RETRY_AFTER = 10;

    /**
     * RFC 8628 §3.1: a device asks to be authorized for these scopes; the person will enter the
     * user code. A user code that is taken by a live request is drawn again.
     */
    public Uni<DeviceStarted> startDevice(ApplicationRow client, Set<String> scopes) {
        if (client.ownerId() == null) {
            return Uni.createFrom().failure(new OAuthException(OAuthError.UNAUTHORIZED_CLIENT,
                    "A platform client cannot act for a person."));
        }
        Scopes.requireAllowed(scopes, client.scopes());
        return startDevice(client, scopes, 3);
    }

    private Uni<DeviceStarted> startDevice(ApplicationRow client, Set<String> scopes, int attemptsLeft) {
        String deviceCode = crypto.newDeviceCode();
        String userCode = crypto.randomString(UserCodes.ALPHABET, UserCodes.LENGTH);
        long interval = config.devicePollInterval().toSeconds();
        OffsetDateTime expires = OffsetDateTime.now(ZoneOffset.UTC).plus(config.deviceCodeLifetime());
        return devices.insert(new DeviceAuthorizationRepository.NewRequest(crypto.hash(deviceCode), crypto.hash(userCode),
                        client.id(), List.copyOf(scopes), (int) interval, expires), config.liveDeviceCodesPerClient())
                .chain(inserted -> {
                    if (inserted == DeviceAuthorizationRepository.Inserted.CLIENT_FULL) {
                        EVENTS.warnf("event=device_authorization_refused client_id=%s reason=live_codes_at_cap cap=%d",
                                client.clientId(), config.liveDeviceCodesPerClient());
                        return Uni.createFrom().failure(new OAuthException(OAuthError.SLOW_DOWN, "Too many device codes "
                                + "of this application are waiting for people now. Try again shortly.", LIVE_CAP_RETRY_AFTER));
                    }
                    if (inserted == DeviceAuthorizationRepository.Inserted.STORED) {
                        EVENTS.infof("event=device_authorization_started client_id=%s", client.clientId());
                        return Uni.createFrom().item(new DeviceStarted(deviceCode, userCode,
                                config.deviceCodeLifetime().toSeconds(), interval));
                    }
                    if (attemptsLeft <= 1) {
                        return Uni.createFrom().failure(new IllegalStateException("no free user code after 3 draws"));
                    }
                    return startDevice(client, scopes, attemptsLeft - 1);
                });
    }

    /**
     * The device_code grant (RFC 8628 §3.4, §3.5): pending, too soon (the interval grows), denied,
     * expired; once approved, the tokens, exactly once.
     */
    public Uni<IssuedTokens> deviceCode(ApplicationRow client, String deviceCode) {
        byte[] hash = crypto.hash(deviceCode);
        return devices.poll(hash, client.id()).chain(poll -> {
            if (poll == null) {
                throw OAuthException.invalidGrant("The device code is not valid.");
            }
            if (poll.expired()) {
                throw new OAuthException(OAuthError.EXPIRED_TOKEN, "The device code expired. Start again.");
            }
            if (poll.tooSoon()) {
                throw new OAuthException(OAuthError.DEVICE_SLOW_DOWN, "Polled too soon: wait 5 seconds more between polls.");
            }
            switch (poll.status()) {
                case "pending" -> throw new OAuthException(OAuthError.AUTHORIZATION_PENDING, "The person has not answered yet.");
                case "denied" -> throw new OAuthException(OAuthError.DEVICE_ACCESS_DENIED, "The person denied the device.");
                default -> {
                    // approved
                }
            }
            if (poll.used()) {
                throw OAuthException.invalidGrant("The device code was used already.");
            }
            Instant authTime = poll.authTime();
            return pool.withTransaction(conn -> devices.markUsed(conn, hash).chain(marked -> {
                if (!marked) {
                    throw OAuthException.invalidGrant("The device code was used already.");
                }
                return issue(conn, client, poll.personId(), poll.username(), poll.scopes(), UUID.randomUUID(), true,
                        authTime, poll.signIn()).chain(issued -> withIdToken(issued, client, poll.personId(), authTime, null));
            })).invoke(issued -> EVENTS.infof("event=token_issued grant=device_code client_id=%s person_id=%d",
                    client.clientId(), poll.personId()));
        });
    }

    /** authorization_code: single use, same client and redirect URI, PKCE when the code has a challenge. */
    public Uni<IssuedTokens> exchangeCode(ApplicationRow client, String code, String redirectUri, String verifier) {
        byte[] hash = crypto.hash(code);
        return pool.withTransaction(conn -> tokens.consumeCode(conn, hash).chain(stored -> {
            if (stored == null) {
                return Uni.createFrom().<IssuedTokens>nullItem();
            }
            if (stored.expired()) {
                throw OAuthException.invalidGrant("The authorization code expired.");
            }
            if (stored.applicationId() == null || stored.applicationId() != client.id()) {
                throw OAuthException.invalidGrant("The authorization code was issued to another client.");
            }
            if (!stored.redirectUri().equals(redirectUri)) {
                throw OAuthException.invalidGrant("The redirect_uri does not match the authorization request.");
            }
            if (stored.codeChallenge() != null ? !Pkce.matches(verifier, stored.codeChallenge()) : verifier != null) {
                throw OAuthException.invalidGrant(stored.codeChallenge() == null
                        ? "This code was issued without a code_challenge; no code_verifier is expected."
                        : "The code_verifier does not match the code_challenge.");
            }
            Instant authTime = stored.authTime();
            return issue(conn, client, stored.personId(), stored.username(), stored.scopes(), stored.family(), true,
                    authTime, stored.signIn())
                    // Inside the transaction: no tokens without the ID token the answer owes.
                    .chain(issued -> withIdToken(issued, client, stored.personId(), authTime, stored.nonce()));
        })).chain(issued -> issued != null ? Uni.createFrom().item(issued) : replayedOrUnknown(hash, client))
                .invoke(issued -> EVENTS.infof("event=token_issued grant=authorization_code client_id=%s token_id=%d",
                        client.clientId(), issued.accessTokenId()));
    }

    /** A used code presented again: whatever it issued is revoked (RFC 6749 §4.1.2). */
    private Uni<IssuedTokens> replayedOrUnknown(byte[] hash, ApplicationRow client) {
        return tokens.familyOfUsedCode(hash).chain(family -> {
            if (family == null) {
                return Uni.createFrom().failure(OAuthException.invalidGrant("The authorization code is not valid."));
            }
            return tokens.revokeFamily(family).invoke(count -> EVENTS.warnf(
                            "event=code_replay client_id=%s revoked_tokens=%d", client.clientId(), count))
                    .chain(count -> Uni.createFrom().failure(
                            OAuthException.invalidGrant("The authorization code was used already; its tokens are revoked.")));
        });
    }

    /** password: the directory checks the person; the client, if any, must allow this grant. */
    public Uni<IssuedTokens> password(ApplicationRow clientOrNull, String username, String password, Set<String> scopes,
            String clientAddress) {
        if (clientOrNull == null && scopes.contains(Scopes.OPENID)) {
            return Uni.createFrom().failure(OAuthException.invalidScope(
                    "The openid scope needs a client: an ID token is issued to one (its audience)."));
        }
        if (clientOrNull != null) {
            if (!clientOrNull.passwordGrant()) {
                return Uni.createFrom().failure(new OAuthException(OAuthError.UNAUTHORIZED_CLIENT,
                        "The password grant is switched off for this application."));
            }
            Scopes.requireAllowed(scopes, clientOrNull.scopes());
        }
        return directory.verifyPassword(new DirectoryClient.PasswordCheck(username, password, clientAddress))
                .onFailure(DirectoryClient.PasswordRefused.class).transform(e -> {
                    EVENTS.infof("event=login_failed grant=password client_id=%s", clientIdOf(clientOrNull));
                    return OAuthException.invalidGrant("The username or password is not valid.");
                })
                .onFailure(DirectoryClient.PasswordThrottled.class).transform(e -> new OAuthException(OAuthError.INVALID_GRANT,
                        "Too many sign-in attempts for this account or address. Try again later.", ((DirectoryClient.PasswordThrottled) e).retryAfter()))
                .chain(person -> pool.withTransaction(conn -> issue(conn, clientOrNull,
                        person.userId(), person.username(), List.copyOf(scopes), UUID.randomUUID(), true, Instant.now(), null)
                        .chain(issued -> withIdToken(issued, clientOrNull, person.userId(),
                                Instant.ofEpochSecond(issued.createdAt()), null)))
                        // The application now has access: it is one of the person's grants.
                        .call(issued -> clientOrNull == null ? Uni.createFrom().voidItem()
                                : consents.grant(clientOrNull.id(), person.userId(), scopes))
                        .invoke(issued -> EVENTS.infof("event=token_issued grant=password client_id=%s person_id=%d",
                                clientIdOf(clientOrNull), person.userId())));
    }

    /**
     * refresh_token: rotation on every use, in one statement (TokenRepository#rotate). A refresh
     * token presented after it was rotated is taken as stolen: its whole family is revoked
     * (RFC 9700 §4.14.2). A refusal for another client or for wider scopes leaves it unused.
     * {@code clientOrNull} is null for a refresh token of the password grant without a client,
     * which is refreshed without one too; a client's refresh token needs that client.
     */
    public Uni<IssuedTokens> refresh(ApplicationRow clientOrNull, String refreshToken, Set<String> requested) {
        byte[] hash = crypto.hash(refreshToken);
        String access = crypto.newAccessToken();
        String refresh = crypto.newRefreshToken();
        Instant now = Instant.now();
        TokenRepository.Rotation rotation = new TokenRepository.Rotation(hash, clientOrNull == null ? null : clientOrNull.id(),
                requested.isEmpty() ? null : List.copyOf(requested), crypto.hash(access), crypto.encrypt(access),
                OffsetDateTime.ofInstant(now.plus(config.accessTokenLifetime()), ZoneOffset.UTC), crypto.hash(refresh),
                OffsetDateTime.ofInstant(now.plus(config.refreshTokenLifetime()), ZoneOffset.UTC));
        return tokens.rotate(rotation)
                .chain(rotated -> rotated == null ? refreshRefused(hash, clientOrNull, requested)
                        // Core §12.2: the ID token of a refresh carries the first sign-in's auth_time, no nonce.
                        : withIdToken(new IssuedTokens(rotated.accessTokenId(), access, refresh,
                                config.accessTokenLifetime().toSeconds(), rotated.scopes(), now.getEpochSecond()),
                                clientOrNull, rotated.personId(),
                                rotated.authTime(), null))
                // Routine and frequent, and recorded in the token table itself: DEBUG, where
                // sign-ins (code and password grants) and every refusal stay at INFO. One line per
                // token was an eighth of the token endpoint's time in the profile.
                .invoke(issued -> EVENTS.debugf("event=token_refreshed client_id=%s", clientIdOf(clientOrNull)));
    }

    /** Why a refresh token rotated nothing, read after the fact; a reuse revokes its family. */
    private Uni<IssuedTokens> refreshRefused(byte[] hash, ApplicationRow clientOrNull, Set<String> requested) {
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

    /** client_credentials: the client acts for itself; no refresh token (RFC 6749 §4.4.3). */
    public Uni<IssuedTokens> clientCredentials(ApplicationRow client, Set<String> scopes) {
        if (!client.confidential()) {
            return Uni.createFrom().failure(new OAuthException(OAuthError.UNAUTHORIZED_CLIENT,
                    "Only confidential clients may use client_credentials."));
        }
        Scopes.requireAllowed(scopes, client.scopes());
        if (scopes.contains(Scopes.OPENID)) {
            return Uni.createFrom().failure(OAuthException.invalidScope(
                    "The openid scope needs a person: client_credentials has none."));
        }
        return issue(pool, client, null, null, List.copyOf(scopes), UUID.randomUUID(), false, null, null)
                // DEBUG for the same reason as a refresh.
                .invoke(issued -> EVENTS.debugf("event=token_issued grant=client_credentials client_id=%s", client.clientId()));
    }

    /** Who revokes (RFC 7009): a client (no person), or a bearer token's person and client. */
    public record Revoker(Long applicationId, Long personId) {
    }

    /**
     * RFC 7009: how many tokens the revoker's request revoked. Unknown, foreign or already
     * revoked tokens revoke nothing, which the endpoint does not tell. A refresh token takes its
     * whole authorization with it; an access token goes alone.
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

    /**
     * The ID token of tokens whose scopes have openid, for a person and a client (Core §3.1.3.3);
     * the tokens as they are otherwise.
     */
    private Uni<IssuedTokens> withIdToken(IssuedTokens issued, ApplicationRow clientOrNull, Long personId, Instant authTime,
            String nonce) {
        if (clientOrNull == null || personId == null || !issued.scopes().contains(Scopes.OPENID)) {
            return Uni.createFrom().item(issued);
        }
        var subject = new IdTokenClaims.Subject(Issuer.of(config), personId, clientOrNull.clientId(), authTime, nonce);
        return idTokens.sign(subject, issued.accessToken(), clientOrNull.idTokenAlg(), Instant.ofEpochSecond(issued.createdAt()))
                .map(issued::withIdToken);
    }

    /**
     * One INSERT: the access token and, when asked, its refresh token. {@code signIn}: the login
     * session a code or device approval was given in, null when there was none
     * ({@link TokenRules#binding} says what it changes).
     */
    Uni<IssuedTokens> issue(SqlClient client, ApplicationRow clientOrNull, Long personId, String username, List<String> scopes,
            UUID family, boolean withRefresh, Instant authTime, SignIn signIn) {
        Instant now = Instant.now();
        TokenRules.Binding binding = TokenRules.binding(scopes, signIn, now, TokenRules.authorizationLifetime(
                config.refreshTokenAbsoluteLifetime(), clientOrNull == null ? null : clientOrNull.refreshTokenAbsoluteLifetime()),
                config.loginSessionLifetime());
        if (binding == null) {
            return Uni.createFrom().failure(OAuthException.invalidGrant(
                    "The person signed out of the session this was approved in. Sign in again."));
        }
        String access = crypto.newAccessToken();
        String refresh = withRefresh ? crypto.newRefreshToken() : null;
        OffsetDateTime accessExpires = OffsetDateTime.ofInstant(now.plus(config.accessTokenLifetime()), ZoneOffset.UTC);
        OffsetDateTime refreshExpires = OffsetDateTime.ofInstant(now.plus(config.refreshTokenLifetime()), ZoneOffset.UTC);
        OffsetDateTime authorizationExpires = OffsetDateTime.ofInstant(binding.authorizationEnds(), ZoneOffset.UTC);
        List<String> stored = new ArrayList<>(scopes);
        return tokens.issue(client, new TokenRepository.Issue(crypto.hash(access), crypto.encrypt(access),
                        refresh == null ? null : crypto.hash(refresh), clientOrNull == null ? null : clientOrNull.id(),
                        personId, username, stored, family, accessExpires, refreshExpires, authTime, authorizationExpires,
                        binding.sessionHash()))
                .map(id -> new IssuedTokens(id, access, refresh, config.accessTokenLifetime().toSeconds(), stored,
                        now.getEpochSecond()))
                // The application was deleted meanwhile (through another replica, whose change this
                // one's client cache has not seen yet): its tokens may not exist.
                .onFailure(e -> e instanceof PgException pg && "23503".equals(pg.getSqlState()))
                .transform(e -> OAuthException.invalidClient("Client authentication failed."));
    }

    private static String clientIdOf(ApplicationRow app) {
        return app == null ? "-" : app.clientId();
    }
}
