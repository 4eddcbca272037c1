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
import org.ziggurat.auth.tokens.AccessTokenFormat;
import org.ziggurat.auth.tokens.AccessTokenJwts;
import org.ziggurat.auth.tokens.ResourceServers;
import org.ziggurat.auth.tokens.TokenRequest;
import org.ziggurat.auth.tokens.TokenRow;
import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.tokens.RefreshRotationRepository;
import org.ziggurat.auth.tokens.TokenRepository;
import org.ziggurat.auth.tokens.TokenRules;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;

import static org.ziggurat.auth.tokens.TokenIssuer.clientIdOf;

/**
 * refresh_token (RFC 6749 §6): rotation on every use, in one statement (RefreshRotationRepository#rotate). A
 * refresh token presented after it was rotated is taken as stolen: its whole family is revoked
 * (RFC 9700 §4.14.2). A refusal for another client or for wider scopes leaves it unused. Without
 * a client: a refresh token of the client-less password grant; a client's own needs that client.
 */
@ApplicationScoped
public class RefreshTokenGrant implements TokenGrant {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final TokenRepository tokens;
    private final RefreshRotationRepository rotations;
    private final TokenCrypto crypto;
    private final AuthConfig config;
    private final TokenIssuer issuer;
    private final ResourceServers resources;
    private final AccessTokenFormat formats;

    RefreshTokenGrant(TokenRepository tokens, RefreshRotationRepository rotations, TokenCrypto crypto, AuthConfig config,
            TokenIssuer issuer, ResourceServers resources, AccessTokenFormat formats) {
        this.resources = resources;
        this.formats = formats;
        this.tokens = tokens;
        this.rotations = rotations;
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
        return (client, request) -> refresh(client, refreshToken, scopes, request);
    }

    Uni<IssuedTokens> refresh(ApplicationRow clientOrNull, String refreshToken, Set<String> requested, TokenRequest request) {
        byte[] hash = crypto.hash(refreshToken);
        // A platform token that is a JWT (the platform's or the client's format) is made from the row, so read
        // first; a grant for a resource is found so when the rotation refuses it. An unverified application's
        // refresh is read first too: its grant's scopes are checked against what only a verified one may hold
        // (its tokens with them were revoked when the mark went).
        if (!request.resources().isEmpty() || request.jkt() != null || formats.jwt(clientOrNull, null)
                || clientOrNull != null && !clientOrNull.verified()) {
            return tokens.byHash(hash).chain(row -> bound(clientOrNull, hash, row, requested, request));
        }
        String access = crypto.newAccessToken();
        String refresh = crypto.newRefreshToken();
        Instant now = Instant.now();
        RefreshRotationRepository.Rotation rotation = new RefreshRotationRepository.Rotation(hash, clientOrNull == null ? null : clientOrNull.id(),
                requested.isEmpty() ? null : List.copyOf(requested), crypto.hash(access), crypto.encrypt(access),
                OffsetDateTime.ofInstant(now.plus(config.accessTokenLifetime()), ZoneOffset.UTC), crypto.hash(refresh),
                OffsetDateTime.ofInstant(now.plus(config.refreshTokenLifetime()), ZoneOffset.UTC));
        return rotations.rotate(rotation)
                .chain(rotated -> rotated == null ? tokens.byHash(hash).chain(row -> row != null
                                && (row.audience() != null || row.jkt() != null)
                                // A grant with resources or a key: its refresh is known in full only after reading it.
                                ? bound(clientOrNull, hash, row, requested, request)
                                : refused(row, clientOrNull, requested, null))
                        // Core §12.2: the ID token of a refresh carries the first sign-in's auth_time, amr and acr, no nonce.
                        : issuer.withIdToken(new IssuedTokens(rotated.accessTokenId(), access, refresh,
                                config.accessTokenLifetime().toSeconds(), rotated.scopes(), now.getEpochSecond()),
                                rotated.scopes(), clientOrNull, rotated.personId(), rotated.authTime(), null, rotated.amr()))
                // Routine and frequent, and recorded in the token table itself: DEBUG, where
                // sign-ins (code and password grants) and every refusal stay at INFO.
                .invoke(issued -> EVENTS.debugf("event=token_refreshed client_id=%s", clientIdOf(clientOrNull)));
    }

    /**
     * A refresh whose new access token is made in full before the rotation: one with resources
     * (RFC 8707), a DPoP key, or a JWT. Read first, so that the JWT says what the row will; the
     * rotation still takes the refresh token only if it is unused then.
     */
    private Uni<IssuedTokens> bound(ApplicationRow clientOrNull, byte[] hash, TokenRow row, Set<String> requested,
            TokenRequest request) {
        Long clientId = clientOrNull == null ? null : clientOrNull.id();
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        if (row == null || TokenRules.refreshRefusal(row, clientId, requested, now, request.jkt())
                != TokenRules.RefreshRefusal.INVALID || row.usedAt() != null || !row.isLive(now) || row.isAccess()) {
            return refused(row, clientOrNull, requested, request.jkt());
        }
        List<String> audience = ResourceServers.audience(request.resources(), row.audience());
        // A grant for a resource server an operator removed since gives no more tokens for it.
        if (audience != null && audience.stream().anyMatch(resource -> resources.byIdentifier(resource) == null)) {
            return Uni.createFrom().failure(new OAuthException(OAuthError.INVALID_TARGET,
                    "The grant's resource is no longer one this server issues tokens for."));
        }
        List<String> narrowed = requested.isEmpty() ? row.scopes() : List.copyOf(requested);
        if (clientOrNull != null) {
            try {
                Scopes.requireFirstPartyOnlyVerified(narrowed, clientOrNull.verified());
            } catch (OAuthException refused) {
                return Uni.createFrom().failure(refused);
            }
        }
        List<String> accessScopes = resources.scopesFor(audience, narrowed);
        java.time.Duration lifetime = resources.lifetime(audience, config.accessTokenLifetime());
        Instant expires = now.plus(lifetime);
        Uni<TokenIssuer.AccessTokenValue> value = issuer.accessTokenValue(clientOrNull, new AccessTokenJwts.Claims(
                clientOrNull == null ? null : clientOrNull.clientId(), row.personId(), accessScopes, audience, now, expires,
                row.authTime(), row.amr(), request.jkt(), null));
        String refresh = crypto.newRefreshToken();
        return value.chain(access -> rotations.rotateBound(new RefreshRotationRepository.BoundRotation(hash, clientId,
                        Scopes.granted(narrowed), accessScopes, crypto.hash(access.value()), crypto.encrypt(access.value()),
                        OffsetDateTime.ofInstant(expires, ZoneOffset.UTC), crypto.hash(refresh),
                        OffsetDateTime.ofInstant(now.plus(config.refreshTokenLifetime()), ZoneOffset.UTC), audience,
                        request.jkt(), row.jkt(), access.status()))
                .chain(rotated -> rotated == null ? tokens.byHash(hash).chain(again -> refused(again, clientOrNull, requested,
                                request.jkt()))
                        : issuer.withIdToken(new IssuedTokens(rotated.accessTokenId(), access.value(), refresh,
                                lifetime.toSeconds(), rotated.scopes(), now.getEpochSecond())
                                .boundTo(request.jkt()), narrowed, clientOrNull, rotated.personId(), rotated.authTime(), null,
                                rotated.amr())));
    }

    /** Why a refresh token rotated nothing, read after the fact; a reuse revokes its family. */
    private Uni<IssuedTokens> refused(TokenRow row, ApplicationRow clientOrNull, Set<String> requested, String jkt) {
        Long clientId = clientOrNull == null ? null : clientOrNull.id();
        return switch (TokenRules.refreshRefusal(row, clientId, requested, Instant.now(), jkt)) {
            case REUSED -> tokens.revokeFamily(row.family()).invoke(count -> EVENTS.warnf(
                            "event=refresh_token_reuse client_id=%s person_id=%s revoked_tokens=%d",
                            clientIdOf(clientOrNull), row.personId(), count))
                    .chain(count -> Uni.createFrom().failure(OAuthException.invalidGrant(
                            "The refresh token was used already; the authorization is revoked.")));
            case CLIENT_MUST_AUTHENTICATE -> Uni.createFrom().failure(OAuthException.invalidClient(
                    "This refresh token was issued to a client: the client must authenticate."));
            case OTHER_CLIENT -> Uni.createFrom().failure(OAuthException.invalidGrant("The refresh token was issued to another client."));
            case WIDENS_SCOPES -> Uni.createFrom().failure(OAuthException.invalidScope("A refresh may not widen the scopes of the grant."));
            case OTHER_KEY -> Uni.createFrom().failure(new OAuthException(OAuthError.INVALID_DPOP_PROOF,
                    "The refresh token is bound to a DPoP key: the proof must be signed with it."));
            case INVALID -> Uni.createFrom().failure(OAuthException.invalidGrant("The refresh token is not valid."));
        };
    }
}
