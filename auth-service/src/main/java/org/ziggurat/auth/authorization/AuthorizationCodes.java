package org.ziggurat.auth.authorization;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.clients.ClientAuthenticator;
import org.ziggurat.auth.clients.ClientCredentials;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.Pkce;
import org.ziggurat.auth.oauth.RedirectUris;
import org.ziggurat.auth.oauth.Scopes;
import org.ziggurat.auth.tokens.AuthorizationCodeRepository;
import org.ziggurat.auth.tokens.ConsentRepository;
import org.ziggurat.auth.tokens.LiveAccessTokens;
import org.ziggurat.auth.tokens.PushedRequestRepository;
import org.ziggurat.auth.tokens.SignIn;
import org.ziggurat.auth.tokens.TokenRepository;
import org.ziggurat.auth.tokens.TokenRules;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Authorization codes: issued on consent (or at once for scopes granted before), by the spec's API
 * form (the resource owner's own access token stands for the consent), and the spec's revocation
 * of an authorization by its client. Security events name client and person, never a secret.
 */
@ApplicationScoped
public class AuthorizationCodes {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final ClientAuthenticator clients;
    private final ConsentRepository consents;
    private final TokenRepository tokens;
    private final AuthorizationCodeRepository codes;
    private final LiveAccessTokens liveTokens;
    private final TokenCrypto crypto;
    private final AuthConfig config;
    private final PushedRequestRepository pushed;
    private final SecurityLogEntries securityLog;

    AuthorizationCodes(ClientAuthenticator clients, ConsentRepository consents, TokenRepository tokens,
            AuthorizationCodeRepository codes, LiveAccessTokens liveTokens, TokenCrypto crypto, AuthConfig config,
            PushedRequestRepository pushed, SecurityLogEntries securityLog) {
        this.securityLog = securityLog;
        this.clients = clients;
        this.consents = consents;
        this.tokens = tokens;
        this.codes = codes;
        this.liveTokens = liveTokens;
        this.crypto = crypto;
        this.config = config;
        this.pushed = pushed;
    }

    /**
     * A code at once when the person granted these scopes before and the request does not ask
     * for consent again (prompt=consent); null when the consent page is needed.
     */
    public Uni<String> codeIfGranted(AuthorizationRequest request, LoginSessions.Session session) {
        if (request.prompts().contains("consent")) {
            return Uni.createFrom().nullItem();
        }
        Set<String> scopes = Scopes.parse(request.scope());
        return consents.covers(request.app().id(), session.personId(), scopes).chain(covered -> covered
                ? issueCode(request, session, scopes)
                : Uni.createFrom().nullItem());
    }

    /** The person approved on the consent page: the grant is recorded, and a code issued. */
    public Uni<String> approve(AuthorizationRequest request, LoginSessions.Session session) {
        Set<String> scopes = Scopes.parse(request.scope());
        SecurityLogEntries.Origin origin = securityLog.origin();
        return consents.grant(request.app().id(), session.personId(), scopes)
                .chain(() -> securityLog.applicationAuthorized(session.personId(), request.app().name(), origin))
                .chain(() -> issueCode(request, session, scopes))
                .invoke(() -> EVENTS.infof("event=consent_granted client_id=%s person_id=%d", request.app().clientId(),
                        session.personId()));
    }

    public void denied(AuthorizationRequest request, LoginSessions.Session session) {
        EVENTS.infof("event=consent_denied client_id=%s person_id=%d", request.app().clientId(), session.personId());
    }

    /** The spec's API form of the authorization endpoint (spec 4.2), as its form sends it. */
    public record ApiApproval(ClientCredentials.Claimed client, String username, String redirectUri, String scope,
            String state, String codeChallenge, String codeChallengeMethod) {
    }

    /** A code approved by API, with the request it answers. */
    public record ApprovedByApi(AuthorizationRequest request, String code) {
    }

    /**
     * {@code POST /oauth/authorize} by API: the resource owner's own access token stands for their
     * consent, and the client proves itself too. Which tokens may do this, and for which scopes:
     * {@link ApiAuthorization}. The token carries these scopes already, so the grant is recorded
     * as the person's own.
     */
    public Uni<ApprovedByApi> approveByApi(ApiApproval approval, String bearer) {
        if (bearer == null) {
            throw new OAuthException(OAuthError.TOKEN_MISSING, "The resource owner's access token is required.");
        }
        Set<String> scopes = Scopes.parse(approval.scope());
        String challenge = Pkce.challenge(approval.codeChallenge(), approval.codeChallengeMethod());
        return clients.authenticate(approval.client()).chain(app -> liveTokens.bearer(bearer).chain(owner -> {
            if (owner == null || owner.personId() == null) {
                throw new OAuthException(OAuthError.TOKEN_INVALID, "The access token is not valid.");
            }
            if (!RedirectUris.registered(app.redirectUris(), approval.redirectUri())) {
                throw OAuthException.invalidRequest("The redirect_uri is not registered for this client.");
            }
            if (!app.confidential() && challenge == null) {
                throw OAuthException.invalidRequest("A public client must send a PKCE code_challenge (S256).");
            }
            if (app.requirePushedRequests()) {
                throw OAuthException.invalidRequest("This application must push its authorization requests (RFC 9126).");
            }
            ApiAuthorization.check(new ApiAuthorization.Presented(owner.applicationId(), owner.username(), owner.scopes(),
                            owner.actor()),
                    app.id(), app.scopes(), app.verified(), approval.username(), scopes);
            Map<String, String> params = new LinkedHashMap<>();
            params.put("redirect_uri", approval.redirectUri());
            if (approval.state() != null) {
                params.put("state", approval.state());
            }
            if (challenge != null) {
                params.put("code_challenge", challenge);
            }
            AuthorizationRequest request = new AuthorizationRequest(app, approval.redirectUri(), params);
            return consents.grant(app.id(), owner.personId(), scopes)
                    // In the presenting token's family: what ends it (a new password ends the password
                    // grant's tokens) ends what it made.
                    .chain(() -> issueCode(request, owner.personId(), owner.username(), null, null, scopes,
                            owner.authorizationExpiresAt(), owner.family()))
                    .map(code -> new ApprovedByApi(request, code));
        }));
    }

    /**
     * The spec's {@code DELETE /oauth/authorize}: the client revokes the authorization an access
     * token of its own belongs to (all its tokens). The answer is the same whether there was one
     * or not; the caller is sent back to the redirect URI, which must be the client's.
     */
    public Uni<Void> revoke(ClientCredentials.Claimed claimed, String accessToken, String redirectUri, String username) {
        return clients.authenticate(claimed).chain(app -> {
            if (!RedirectUris.registered(app.redirectUris(), redirectUri)) {
                throw OAuthException.invalidRequest("The redirect_uri is not registered for this client.");
            }
            return tokens.byHash(crypto.hash(accessToken)).chain(row -> {
                Uni<Integer> revoked = TokenRules.deletableBy(row, app.id(), username)
                        ? tokens.revokeFamily(row.family()) : Uni.createFrom().item(0);
                return revoked.invoke(count -> {
                    if (count > 0) {
                        EVENTS.infof("event=authorization_revoked client_id=%s person_id=%s revoked=%d", app.clientId(),
                                row.personId(), count);
                    }
                }).replaceWithVoid();
            });
        });
    }

    private Uni<String> issueCode(AuthorizationRequest request, LoginSessions.Session session, Set<String> scopes) {
        return issueCode(request, session.personId(), session.username(), session.authTime(),
                new SignIn(session.hash(), session.expiresAt(), session.amr()), scopes, null, null);
    }

    /**
     * {@code authTime}: when the person signed in, and {@code signIn} the session they signed in
     * with; both null for the API form, which has no sign-in.
     */
    private Uni<String> issueCode(AuthorizationRequest request, long personId, String username, java.time.Instant authTime,
            SignIn signIn, Set<String> scopes, java.time.Instant authorizationEnds, UUID family) {
        String value = crypto.newCode();
        String challenge = request.codeChallenge();
        Uni<Boolean> pushedUse = request.requestUri() == null ? Uni.createFrom().item(true)
                : pushed.use(crypto.hash(request.requestUri()));
        return pushedUse.invoke(usable -> {
            if (!usable) {
                throw new AuthorizationRequests.PushedRequestRefused();
            }
        }).chain(usable -> codes.insert(crypto.hash(value), new AuthorizationCodeRepository.Code(request.app().id(), personId, username,
                        request.redirectUri(), List.copyOf(scopes), challenge, family != null ? family : UUID.randomUUID(),
                        OffsetDateTime.now(ZoneOffset.UTC).plus(config.codeLifetime()), false, request.nonce(), authTime,
                        signIn, request.resource() == null ? null : List.of(request.resource().split(" ")),
                        request.dpopJkt(), authorizationEnds, idTokenClaims(request))))
                .invoke(inserted -> {
                    if (!inserted) {
                        EVENTS.warnf("event=nonce_replay client_id=%s person_id=%d", request.app().clientId(), personId);
                        throw new NonceReplayed();
                    }
                })
                .replaceWith(value)
                .invoke(() -> EVENTS.infof("event=code_issued client_id=%s person_id=%d pkce=%s", request.app().clientId(),
                        personId, challenge != null));
    }

    /** The names of the claims the request asks for its ID token; null when none. */
    private static List<String> idTokenClaims(AuthorizationRequest request) {
        List<String> asked = request.claims().idTokenPersonClaims();
        return asked.isEmpty() ? null : asked;
    }

    /** A request whose nonce was used for a code already: refused, since its ID token could be replayed. */
    public static final class NonceReplayed extends RuntimeException {
        NonceReplayed() {
            super("nonce used before", null, false, false);
        }
    }
}
