package org.ziggurat.auth.authorization;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.clients.ApplicationRepository;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.Pkce;
import org.ziggurat.auth.oauth.Scopes;
import org.ziggurat.auth.tokens.ConsentRepository;
import org.ziggurat.auth.tokens.PushedRequestRepository;
import org.ziggurat.auth.tokens.ResourceServers;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which requests of the authorization endpoint (RFC 6749 §4.1) are good, apart from the pages
 * that show the answer: their client and redirect URI, the rest of their parameters, a pushed
 * request's own (RFC 9126), whether the person must sign in, and whether the client may hear an
 * answer without a page. Signing in is {@link SignIns}'; codes are {@link AuthorizationCodes}'.
 */
@ApplicationScoped
public class AuthorizationRequests {

    private final ApplicationRepository applications;
    private final ConsentRepository consents;
    private final TokenCrypto crypto;
    private final AuthConfig config;
    private final PushedRequestRepository pushed;
    private final Registrants registrants;

    private final ResourceServers resources;
    private final RequestObjects requestObjects;

    AuthorizationRequests(ApplicationRepository applications, ConsentRepository consents, TokenCrypto crypto,
            AuthConfig config, PushedRequestRepository pushed, Registrants registrants, ResourceServers resources,
            RequestObjects requestObjects) {
        this.resources = resources;
        this.requestObjects = requestObjects;
        this.applications = applications;
        this.consents = consents;
        this.crypto = crypto;
        this.config = config;
        this.pushed = pushed;
        this.registrants = registrants;
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
            if (app != null && params.get("request") != null) {
                if (requestUri != null) {
                    return Uni.createFrom().failure(new RequestObjects.RequestObjectRefused(
                            "invalid_request: request and request_uri together"));
                }
                return requestObjects.merged(app, params).map(merged -> AuthorizationRequest.of(app, merged));
            }
            if (app != null && requestUri != null && !requestUri.startsWith(AuthorizationRequest.REQUEST_URI_PREFIX)) {
                // Not a pushed request's: a request object by reference (Core §6.2).
                return requestObjects.byReference(app, params).map(merged -> AuthorizationRequest.of(app, merged));
            }
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
     * operator verified it or registered it (their own token, or the initial access token), or the
     * person consented to it before. Any other client's redirect URI could be anyone's address
     * (RFC 9700 §4.11.2), and the answer itself would tell it whether the visitor is signed in.
     */
    public Uni<Boolean> answersSilently(AuthorizationRequest request, LoginSessions.Session session) {
        if (request.app().verified() || request.app().operatorRegistered()) {
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

    /** RFC 9126 §5: an application that requires pushed requests takes no other kind. */
    public static boolean pushRequired(AuthorizationRequest request) {
        return request.app().requirePushedRequests() && request.requestUri() == null;
    }

    /** A JWK SHA-256 thumbprint, base64url without padding (RFC 7638, RFC 9449 §10). */
    private static final java.util.regex.Pattern DPOP_JKT = java.util.regex.Pattern.compile("[A-Za-z0-9_-]{43}");

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
            Scopes.requireAllowed(Scopes.parse(request.scope()), request.app().scopes(), request.app().verified());
            resources.parse(request.resource());
            if (request.dpopJkt() != null && !DPOP_JKT.matcher(request.dpopJkt()).matches()) {
                return OAuthException.invalidRequest("dpop_jkt must be a JWK SHA-256 thumbprint (43 base64url characters).");
            }
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
     * Whether the person must sign in (again) for this request: no session, prompt=login, a
     * session older than max_age, or one without the second factor that the client asks for
     * (acr_values, RFC 9470's step-up) when the person has one, or a session of another person than
     * the one the client asks for (the claims parameter's sub value).
     */
    public boolean needsSignIn(AuthorizationRequest request, LoginSessions.Session session) {
        return session == null || (request.forcesLogin() || request.tooOld(session.authTime(), java.time.Instant.now()))
                && !request.signedInSincePushed(session.signedInAt())
                || session.secondFactor() && request.asksForSecondFactor(session.amr())
                || request.asksForAnotherPerson(session.personId());
    }
}
