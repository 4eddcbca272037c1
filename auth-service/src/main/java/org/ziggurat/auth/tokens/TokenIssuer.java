package org.ziggurat.auth.tokens;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.Issuer;
import org.ziggurat.auth.clients.ApplicationRow;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.oauth.IdTokenClaims;
import org.ziggurat.auth.oauth.IssuedTokens;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.Scopes;
import org.ziggurat.directory.client.DirectoryClient;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

/**
 * What every grant ends with: new tokens stored (one INSERT) and, for OpenID Connect, the ID token
 * beside them. Every token is stored as a keyed hash; the access token's value also sealed.
 */
@ApplicationScoped
public class TokenIssuer {

    private final TokenRepository tokens;
    private final TokenCrypto crypto;
    private final AuthConfig config;
    private final IdTokens idTokens;

    private final ResearchPeople researchPeople;
    private final OpenIdClaims openIdClaims;
    private final ResourceServers resources;
    private final AccessTokenJwts jwts;
    private final AccessTokenFormat formats;
    private final StatusIndices statusIndices;

    TokenIssuer(TokenRepository tokens, TokenCrypto crypto, AuthConfig config, IdTokens idTokens, ResearchPeople researchPeople,
            OpenIdClaims openIdClaims, ResourceServers resources, AccessTokenJwts jwts, AccessTokenFormat formats,
            StatusIndices statusIndices) {
        this.formats = formats;
        this.statusIndices = statusIndices;
        this.researchPeople = researchPeople;
        this.openIdClaims = openIdClaims;
        this.resources = resources;
        this.jwts = jwts;
        this.tokens = tokens;
        this.crypto = crypto;
        this.config = config;
        this.idTokens = idTokens;
    }

    /**
     * One INSERT: the access token and, when asked, its refresh token. {@code signIn}: the login
     * session a code or device approval was given in, null when there was none
     * ({@link TokenRules#binding} says what it changes). {@code amr}: how the person signed in
     * (RFC 8176), which introspection tells resource servers as its class (acr); null when no
     * person stands behind the tokens.
     */
    public Uni<IssuedTokens> issue(SqlClient client, ApplicationRow clientOrNull, Long personId, String username,
            List<String> scopes, UUID family, boolean withRefresh, Instant authTime, SignIn signIn, List<String> amr,
            TokenBounds bounds) {
        return issue(issue -> tokens.issue(client, issue), clientOrNull, personId, username, scopes, family, withRefresh,
                authTime, signIn, amr, bounds);
    }

    /**
     * What tokens asked for with {@code request} are bound to, under a grant whose authorization
     * named {@code grantResources} (null: none, or there was no authorization request): the
     * access token's audience is what the request names, within the grant's; the refresh token
     * keeps the grant's (or, without one, what this request named); a public client's refresh
     * token is bound to its DPoP key as its access token is (RFC 9449 §5).
     */
    public static TokenBounds bounds(ApplicationRow clientOrNull, TokenRequest request, List<String> grantResources) {
        List<String> audience = ResourceServers.audience(request.resources(), grantResources);
        List<String> grant = grantResources != null && !grantResources.isEmpty() ? grantResources
                : request.resources().isEmpty() ? null : request.resources();
        boolean publicClient = clientOrNull == null || !clientOrNull.confidential();
        return TokenBounds.of(audience, grant, request.jkt(), request.jkt() != null && publicClient);
    }

    /**
     * One transaction for what a grant consumes (a code, a device code) and the tokens it issues,
     * the ID token included: a failure anywhere leaves neither.
     */
    public Uni<IssuedTokens> inTransaction(Function<SqlConnection, Uni<IssuedTokens>> grant) {
        return tokens.inTransaction(grant);
    }

    /** The same in a statement of its own, for a grant that consumes nothing first (client credentials). */
    public Uni<IssuedTokens> issue(ApplicationRow clientOrNull, Long personId, String username, List<String> scopes,
            UUID family, boolean withRefresh, Instant authTime, SignIn signIn, List<String> amr, TokenBounds bounds) {
        return issue(tokens::issue, clientOrNull, personId, username, scopes, family, withRefresh, authTime, signIn, amr,
                bounds);
    }

    private Uni<IssuedTokens> issue(Function<TokenRepository.Issue, Uni<Long>> insert, ApplicationRow clientOrNull,
            Long personId, String username, List<String> scopes, UUID family, boolean withRefresh, Instant authTime,
            SignIn signIn, List<String> amr, TokenBounds bounds) {
        // To the second: a JWT's iat and exp are whole seconds, and the row says what the JWT says.
        Instant now = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        TokenRules.Binding binding = inheritedBy(bounds, TokenRules.binding(scopes, signIn, now,
                TokenRules.authorizationLifetime(config.refreshTokenAbsoluteLifetime(),
                        clientOrNull == null ? null : clientOrNull.refreshTokenAbsoluteLifetime()),
                config.loginSessionLifetime()));
        if (binding == null) {
            return Uni.createFrom().failure(OAuthException.invalidGrant(
                    "The person signed out of the session this was approved in. Sign in again."));
        }
        String refresh = withRefresh ? crypto.newRefreshToken() : null;
        Instant usual = now.plus(resources.lifetime(bounds.audience(), config.accessTokenLifetime()));
        Instant accessEnds = bounds.notAfter() != null && bounds.notAfter().isBefore(usual) ? bounds.notAfter() : usual;
        OffsetDateTime accessExpires = OffsetDateTime.ofInstant(accessEnds, ZoneOffset.UTC);
        OffsetDateTime refreshExpires = OffsetDateTime.ofInstant(now.plus(config.refreshTokenLifetime()), ZoneOffset.UTC);
        OffsetDateTime authorizationExpires = OffsetDateTime.ofInstant(binding.authorizationEnds(), ZoneOffset.UTC);
        List<String> stored = resources.scopesFor(bounds.audience(), new ArrayList<>(scopes));
        List<String> amrKept = personId == null ? null : amr;
        AccessTokenJwts.Claims claims = new AccessTokenJwts.Claims(clientOrNull == null ? null : clientOrNull.clientId(),
                personId, stored, bounds.audience(), now, accessEnds, authTime, amrKept, bounds.jkt(), bounds.actor());
        Function<AccessTokenValue, Uni<IssuedTokens>> stores = access -> insert.apply(
                new TokenRepository.Issue(crypto.hash(access.value()), crypto.encrypt(access.value()),
                        refresh == null ? null : crypto.hash(refresh), clientOrNull == null ? null : clientOrNull.id(),
                        personId, username, stored, family, accessExpires, refreshExpires, authTime, authorizationExpires,
                        binding.sessionHash(), amrKept, bounds, List.copyOf(scopes), access.status()))
                .map(id -> new IssuedTokens(id, access.value(), refresh, accessEnds.getEpochSecond() - now.getEpochSecond(),
                        stored, now.getEpochSecond()).boundTo(bounds.jkt()));
        // Each Mutiny step captures and restores the request's context: without a first-party scope
        // to check, nothing is read before the value, and an opaque value is made here, stored at once.
        Uni<IssuedTokens> issued = firstPartyOnly(clientOrNull, scopes) ? firstPartyOnlyVerified(clientOrNull, scopes)
                .chain(() -> accessTokenValue(clientOrNull, claims)).chain(stores::apply)
                : !formats.jwt(clientOrNull, claims.audience()) ? stores.apply(new AccessTokenValue(crypto.newAccessToken(), null))
                : accessTokenValue(clientOrNull, claims).chain(stores::apply);
        return issued
                // The application was deleted meanwhile (through another replica, whose change this
                // one's client cache has not seen yet): its tokens may not exist.
                .onFailure(e -> e instanceof PgException pg && "23503".equals(pg.getSqlState()))
                .transform(e -> OAuthException.invalidClient("Client authentication failed."));
    }

    /**
     * A scope only a verified application may hold ({@code account}) is issued to one only while its
     * mark holds, read now, not from the client cache: a code or a device code approved before the
     * mark went, or another replica's cached row, gives no such token after.
     */
    private Uni<Void> firstPartyOnlyVerified(ApplicationRow clientOrNull, List<String> scopes) {
        return tokens.applicationVerified(clientOrNull.id()).invoke(verified ->
                Scopes.requireFirstPartyOnlyVerified(scopes, verified)).replaceWithVoid();
    }

    /** Whether {@link #firstPartyOnlyVerified} has a mark to read: a client asking for a scope only a verified one holds. */
    private static boolean firstPartyOnly(ApplicationRow clientOrNull, List<String> scopes) {
        return clientOrNull != null && scopes.stream().anyMatch(org.ziggurat.platform.token.ScopeNames.FIRST_PARTY_ONLY::contains);
    }

    /** An exchanged token ends with its subject's sign-in and its authorization, never later. */
    private static TokenRules.Binding inheritedBy(TokenBounds bounds, TokenRules.Binding binding) {
        if (binding == null || bounds.inherited() == null) {
            return binding;
        }
        Instant ends = bounds.inherited().authorizationEnds();
        return new TokenRules.Binding(bounds.inherited().sessionHash(),
                ends != null && ends.isBefore(binding.authorizationEnds()) ? ends : binding.authorizationEnds());
    }

    /** A new access token's value, and its Token Status List entry (null: an opaque token has none). */
    public record AccessTokenValue(String value, StatusIndex status) {
    }

    /**
     * A new access token's value: a JWT saying {@code claims} (RFC 9068) and its own status list
     * entry, which its row keeps, where its audience or else its client wants one
     * ({@link AccessTokenFormat}); else a random opaque one.
     */
    public Uni<AccessTokenValue> accessTokenValue(ApplicationRow clientOrNull, AccessTokenJwts.Claims claims) {
        if (!formats.jwt(clientOrNull, claims.audience())) {
            return Uni.createFrom().item(() -> new AccessTokenValue(crypto.newAccessToken(), null));
        }
        return statusIndices.next().chain(status -> jwts.sign(claims, status).map(jwt -> new AccessTokenValue(jwt, status)));
    }

    /**
     * The ID token of tokens whose grant's scopes ({@code grantScopes}: before they were narrowed to
     * the access token's audience) have openid, for a person and a client (Core §3.1.3.3); the tokens
     * as they are otherwise. The research claims are those the grant's scopes ask for.
     */
    public Uni<IssuedTokens> withIdToken(IssuedTokens issued, List<String> grantScopes, ApplicationRow clientOrNull,
            Long personId, Instant authTime, String nonce, List<String> amr) {
        return withIdToken(issued, grantScopes, clientOrNull, personId, authTime, nonce, amr, null);
    }

    /**
     * The same for tokens of a login session ({@code sessionHash}; null: the access token's, read once
     * committed): the research claims are those of that sign-in (its assurance, its class).
     */
    public Uni<IssuedTokens> withIdToken(IssuedTokens issued, List<String> grantScopes, ApplicationRow clientOrNull,
            Long personId, Instant authTime, String nonce, List<String> amr, byte[] sessionHash) {
        return withIdToken(issued, grantScopes, clientOrNull, personId, authTime, nonce, amr, sessionHash, null);
    }

    /**
     * The same with the claims the authorization request asked for its ID token ({@code askedClaims},
     * OpenID Connect Core §5.5; null for none): those the granted scopes give are added.
     */
    public Uni<IssuedTokens> withIdToken(IssuedTokens issued, List<String> grantScopes, ApplicationRow clientOrNull,
            Long personId, Instant authTime, String nonce, List<String> amr, byte[] sessionHash, List<String> askedClaims) {
        if (clientOrNull == null || personId == null || !grantScopes.contains(Scopes.OPENID)) {
            return Uni.createFrom().item(issued);
        }
        var subject = new IdTokenClaims.Subject(Issuer.of(config), personId, clientOrNull.clientId(), authTime, nonce, amr);
        Long tokenId = sessionHash == null ? issued.accessTokenId() : null;
        Uni<Map<String, Object>> more = askedClaims == null || askedClaims.isEmpty()
                ? researchPeople.claims(personId, grantScopes, amr, tokenId, sessionHash)
                : openIdClaims.of(personId, grantScopes, amr, tokenId, sessionHash)
                        .map(all -> IdTokenClaims.chosen(all, askedClaims))
                        .onFailure(DirectoryClient.NotFound.class).recoverWithItem(Map.of());
        return more.chain(claims -> idTokens.sign(subject, issued.accessToken(), clientOrNull.idTokenAlg(),
                        Instant.ofEpochSecond(issued.createdAt()), claims))
                .map(issued::withIdToken);
    }

    /** Security events name the client by its client_id, or "-" for none. */
    public static String clientIdOf(ApplicationRow app) {
        return app == null ? "-" : app.clientId();
    }
}
