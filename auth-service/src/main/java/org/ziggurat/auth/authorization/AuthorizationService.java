package org.ziggurat.auth.authorization;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.clients.ApplicationRepository;
import org.ziggurat.auth.clients.ClientAuthenticator;
import org.ziggurat.auth.clients.ClientCredentials;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.directory.client.DirectoryClient;
import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.Pkce;
import org.ziggurat.auth.oauth.RedirectUris;
import org.ziggurat.auth.oauth.Scopes;
import org.ziggurat.auth.tokens.ConsentRepository;
import org.ziggurat.auth.tokens.LiveAccessTokens;
import org.ziggurat.auth.tokens.PushedRequestRepository;
import org.ziggurat.auth.clients.ApplicationRow;
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
 * The authorization endpoint's decisions (RFC 6749 §4.1), apart from the pages that show them:
 * which requests are good, signing in, issuing a code on consent, the spec's API form (a code
 * approved by the resource owner's own access token), and revoking an authorization. Security
 * events are logged here, with client and person ids, never a secret.
 */
@ApplicationScoped
public class AuthorizationService {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final ApplicationRepository applications;
    private final ClientAuthenticator clients;
    private final LoginSessions sessions;
    private final ConsentRepository consents;
    private final TokenRepository tokens;
    private final LiveAccessTokens liveTokens;
    private final TokenCrypto crypto;
    private final AuthConfig config;
    private final DirectoryClient directory;
    private final PushedRequestRepository pushed;
    private final Registrants registrants;

    public AuthorizationService(ApplicationRepository applications, ClientAuthenticator clients, LoginSessions sessions,
            ConsentRepository consents, TokenRepository tokens, LiveAccessTokens liveTokens, TokenCrypto crypto,
            AuthConfig config, @RestClient DirectoryClient directory, PushedRequestRepository pushed, Registrants registrants) {
        this.pushed = pushed;
        this.registrants = registrants;
        this.applications = applications;
        this.clients = clients;
        this.sessions = sessions;
        this.consents = consents;
        this.tokens = tokens;
        this.liveTokens = liveTokens;
        this.crypto = crypto;
        this.config = config;
        this.directory = directory;
    }

    /**
     * The request, when its client and redirect URI are known good; null otherwise (an error page).
     * With a request_uri, the pushed request's own parameters (RFC 9126 §4): whatever else the
     * address or a page's hidden fields say is ignored. Fails with {@link PushedRequestRefused}
     * when the request_uri is unknown, another client's, used or expired.
     */
    public Uni<AuthorizationRequest> check(Map<String, String> params) {
        if (!AuthorizationRequest.plausibleClient(params)) {
            return Uni.createFrom().nullItem();
        }
        return applications.byClientId(params.get("client_id")).chain(app -> {
            String requestUri = params.get("request_uri");
            if (app == null || requestUri == null) {
                return Uni.createFrom().item(AuthorizationRequest.of(app, params));
            }
            return pushed.open(crypto.hash(requestUri), app.id(), config.codeLifetime()).map(stored -> {
                if (stored == null) {
                    throw new PushedRequestRefused();
                }
                Map<String, String> merged = new LinkedHashMap<>(stored.params());
                merged.put("client_id", app.clientId());
                merged.put("request_uri", requestUri);
                AuthorizationRequest request = AuthorizationRequest.of(app, merged);
                return request == null ? null : request.pushed(stored.pushedAt());
            });
        }).chain(request -> request == null || request.app().verified() ? Uni.createFrom().item(request)
                : registrants.of(request.app()).map(request::registeredBy));
    }

    /**
     * Whether the client may hear an answer without the person seeing a page (prompt=none): when an
     * operator verified it, or the person consented to it before. Any other client's redirect URI
     * could be anyone's address (RFC 9700 §4.11.2), and the answer itself would tell it whether the
     * visitor is signed in.
     */
    public Uni<Boolean> answersSilently(AuthorizationRequest request, LoginSessions.Session session) {
        if (request.app().verified()) {
            return Uni.createFrom().item(true);
        }
        return session == null ? Uni.createFrom().item(false) : consents.any(request.app().id(), session.personId());
    }

    /** A request_uri that names no live pushed request of the client (RFC 9126 §4). */
    public static final class PushedRequestRefused extends RuntimeException {
        PushedRequestRefused() {
            super("request_uri not valid", null, false, false);
        }
    }

    /** RFC 9126 §2: the stored request_uri of a pushed authorization request, and how long it is good. */
    public record Pushed(String requestUri, long expiresIn) {
    }

    /**
     * RFC 9126 §2.1: the authenticated client pushes an authorization request, checked as the
     * authorization endpoint checks one; errors go back to the client, as from the token endpoint.
     */
    public Uni<Pushed> push(ApplicationRow client, Map<String, String> params) {
        if (params.containsKey("request_uri")) {
            throw OAuthException.invalidRequest("A pushed request may not carry a request_uri.");
        }
        if (params.get("client_id") != null && !params.get("client_id").equals(client.clientId())) {
            throw OAuthException.invalidRequest("client_id is not the authenticated client's.");
        }
        Map<String, String> withClient = new LinkedHashMap<>(params);
        withClient.put("client_id", client.clientId());
        AuthorizationRequest request = AuthorizationRequest.of(client, withClient);
        if (request == null) {
            throw OAuthException.invalidRequest(client.ownerId() == null ? "A platform client cannot act for a person."
                    : "The redirect_uri is missing or not registered for this client.");
        }
        OAuthException problem = problem(request);
        if (problem != null) {
            throw problem;
        }
        String requestUri = AuthorizationRequest.REQUEST_URI_PREFIX + crypto.newCsrfToken();
        Map<String, String> stored = new LinkedHashMap<>(request.params());
        stored.remove("client_id");
        return pushed.insert(crypto.hash(requestUri), client.id(), stored, PUSHED_LIFETIME, config.livePushedRequestsPerClient())
                .map(kept -> {
                    if (!kept) {
                        EVENTS.warnf("event=pushed_request_refused client_id=%s reason=live_requests_at_cap cap=%d",
                                client.clientId(), config.livePushedRequestsPerClient());
                        throw new OAuthException(OAuthError.SLOW_DOWN, "Too many pushed requests of this application are "
                                + "live now. Try again shortly.", org.ziggurat.auth.tokens.TokenService.LIVE_CAP_RETRY_AFTER);
                    }
                    return new Pushed(requestUri, PUSHED_LIFETIME.toSeconds());
                });
    }

    /** How long a pushed request waits for the browser (RFC 9126 §2.2's expires_in). */
    static final java.time.Duration PUSHED_LIFETIME = java.time.Duration.ofSeconds(60);

    /** RFC 9126 §5: an application that requires pushed requests takes no other kind. */
    public static boolean pushRequired(AuthorizationRequest request) {
        return request.app().requirePushedRequests() && request.requestUri() == null;
    }

    /**
     * What is wrong with the rest of a request whose client and redirect URI are good, as the
     * error page says it; null when nothing is. A bad request is an error page, not a redirect to
     * the client: an error redirect that needs no interaction of the person's would make this
     * server an open redirector for any registered URI (RFC 9700 §4.11.2). Only the person's own
     * answer (approve or deny) goes back.
     */
    public String refusal(AuthorizationRequest request) {
        OAuthException problem = problem(request);
        return problem == null ? null : problem.error().code() + ": " + problem.getMessage();
    }

    /** What is wrong with a request whose client and redirect URI are good, as an OAuth error; null when nothing is. */
    OAuthException problem(AuthorizationRequest request) {
        if (!"code".equals(request.params().get("response_type"))) {
            return new OAuthException(OAuthError.UNSUPPORTED_RESPONSE_TYPE, "response_type must be code.");
        }
        try {
            Scopes.requireAllowed(Scopes.parse(request.scope()), request.app().scopes());
            String challenge = Pkce.challenge(request.codeChallenge(), request.params().get("code_challenge_method"));
            if (challenge == null && !request.app().confidential()) {
                return OAuthException.invalidRequest("A public client must send a PKCE code_challenge (S256).");
            }
        } catch (OAuthException e) {
            return e;
        }
        String openId = request.openIdProblem();
        return openId == null ? null : OAuthException.invalidRequest(openId);
    }

    /**
     * Whether the person must sign in (again) for this request: no session, prompt=login, or a
     * session older than max_age.
     */
    public boolean needsSignIn(AuthorizationRequest request, LoginSessions.Session session) {
        return session == null || (request.forcesLogin() || request.tooOld(session.authTime(), java.time.Instant.now()))
                && !request.signedInSincePushed(session.signedInAt());
    }

    /** A request whose nonce was used for a code already: refused, since its ID token could be replayed. */
    public static final class NonceReplayed extends RuntimeException {
        NonceReplayed() {
            super("nonce used before", null, false, false);
        }
    }

    /** Why signing in did not work: the password, or too many attempts (the directory's throttle). */
    public static final class SignInRefused extends RuntimeException {

        private final boolean throttled;

        SignInRefused(boolean throttled) {
            super(throttled ? "too many sign-in attempts" : "wrong login or password", null, false, false);
            this.throttled = throttled;
        }

        public boolean throttled() {
            return throttled;
        }
    }

    /**
     * Signs a person in for a request: a new login session. Fails with {@link SignInRefused}, or
     * with the directory's own failure when it cannot be asked.
     */
    public Uni<LoginSessions.Created> signIn(AuthorizationRequest request, String login, String password,
            String clientAddress) {
        return signIn("login", request.app().clientId(), login, password, clientAddress);
    }

    /**
     * Signs a person in on one of the pages ({@code page}: login, device), for a client when it is
     * known ({@code clientId}, for the log; "-" on the device page, before the code names one).
     */
    public Uni<LoginSessions.Created> signIn(String page, String clientId, String login, String password,
            String clientAddress) {
        return directory.verifyPassword(new DirectoryClient.PasswordCheck(login, password, clientAddress))
                .chain(person -> sessions.create(person.userId(), person.username()))
                .invoke(created -> EVENTS.infof("event=login_succeeded page=%s client_id=%s person_id=%d", page,
                        clientId, created.session().personId()))
                .onFailure(DirectoryClient.PasswordRefused.class).transform(e -> {
                    EVENTS.infof("event=login_failed page=%s client_id=%s", page, clientId);
                    return new SignInRefused(false);
                })
                .onFailure(DirectoryClient.PasswordThrottled.class).transform(e -> new SignInRefused(true));
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
        return consents.grant(request.app().id(), session.personId(), scopes)
                .chain(() -> issueCode(request, session, scopes))
                .invoke(() -> EVENTS.infof("event=consent_granted client_id=%s person_id=%d", request.app().clientId(),
                        session.personId()));
    }

    public void denied(AuthorizationRequest request, LoginSessions.Session session) {
        EVENTS.infof("event=consent_denied client_id=%s person_id=%d", request.app().clientId(), session.personId());
    }

    /** A page's form that this site did not send; {@code clientId} "-" where no client is known yet. */
    public void csrfRefused(String page, String clientId, LoginSessions.Session session) {
        if (session == null) {
            EVENTS.infof("event=csrf_refused page=%s client_id=%s", page, clientId);
        } else {
            EVENTS.infof("event=csrf_refused page=%s client_id=%s person_id=%d", page, clientId, session.personId());
        }
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
            ApiAuthorization.check(new ApiAuthorization.Presented(owner.applicationId(), owner.username(), owner.scopes()),
                    app.id(), app.scopes(), approval.username(), scopes);
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
                    .chain(() -> issueCode(request, owner.personId(), owner.username(), null, null, scopes))
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
                new SignIn(session.hash(), session.expiresAt()), scopes);
    }

    /**
     * {@code authTime}: when the person signed in, and {@code signIn} the session they signed in
     * with; both null for the API form, which has no sign-in.
     */
    private Uni<String> issueCode(AuthorizationRequest request, long personId, String username, java.time.Instant authTime,
            SignIn signIn, Set<String> scopes) {
        String value = crypto.newCode();
        String challenge = request.codeChallenge();
        Uni<Boolean> pushedUse = request.requestUri() == null ? Uni.createFrom().item(true)
                : pushed.use(crypto.hash(request.requestUri()));
        return pushedUse.invoke(usable -> {
            if (!usable) {
                throw new PushedRequestRefused();
            }
        }).chain(usable -> tokens.insertCode(crypto.hash(value), new TokenRepository.Code(request.app().id(), personId, username,
                        request.redirectUri(), List.copyOf(scopes), challenge, UUID.randomUUID(),
                        OffsetDateTime.now(ZoneOffset.UTC).plus(config.codeLifetime()), false, request.nonce(), authTime,
                        signIn)))
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
}
