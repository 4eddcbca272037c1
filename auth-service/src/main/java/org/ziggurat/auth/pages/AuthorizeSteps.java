package org.ziggurat.auth.pages;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.auth.authorization.AccountSecurity;
import org.ziggurat.auth.authorization.AuthorizationCodes;
import org.ziggurat.auth.authorization.AuthorizationRequest;
import org.ziggurat.auth.authorization.AuthorizationRequests;
import org.ziggurat.auth.authorization.RequestObjects;
import org.ziggurat.auth.authorization.LoginSessions;
import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.Scopes;

import java.util.Map;
import java.util.function.Function;

/**
 * The steps of the authorization endpoint in a browser, after {@link AuthorizeResource} read the
 * request: the request checked again at every step (the pages' hidden fields come back from the
 * browser), then sign-in, consent, or the answer to the client, each as a page of
 * {@link AuthorizePages}. What is decided is {@link AuthorizationRequests}' and {@link AuthorizationCodes}'.
 */
@ApplicationScoped
class AuthorizeSteps {

    private final AuthorizationRequests requests;
    private final AuthorizationCodes codes;
    private final LoginSessions sessions;
    private final AuthorizePages pages;
    private final ClientAnswers answers;
    private final PageForms forms;
    private final SecondFactorPages secondFactorPages;
    private final AccountSecurity security;

    AuthorizeSteps(AuthorizationRequests requests, AuthorizationCodes codes, LoginSessions sessions, AuthorizePages pages,
            ClientAnswers answers, PageForms forms, SecondFactorPages secondFactorPages, AccountSecurity security) {
        this.requests = requests;
        this.codes = codes;
        this.sessions = sessions;
        this.pages = pages;
        this.answers = answers;
        this.forms = forms;
        this.secondFactorPages = secondFactorPages;
        this.security = security;
    }

    /** A checked request in a browser: the sign-in page, the consent page, or the code back to the client. */
    Uni<Response> show(AuthorizationRequest request, String sessionCookie, UriInfo uri) {
        return sessions.find(sessionCookie).chain(session -> {
            if (requests.needsSignIn(request, session)) {
                // prompt=none: no page, the client hears why (OpenID Connect Core §3.1.2.6).
                return request.silent()
                        ? silentAnswer(request, session, OAuthError.LOGIN_REQUIRED.code(), "The person must sign in.", uri)
                        : Uni.createFrom().item(pages.login(request, uri, null, null, 200));
            }
            if (request.asksForSecondFactor(session.amr())) {
                return stepUp(request, session, uri);
            }
            return codes.codeIfGranted(request, session).chain(code -> {
                if (code != null) {
                    return Uni.createFrom().item(answers.codeRedirect(request, code, uri));
                }
                return request.silent()
                        ? silentAnswer(request, session, OAuthError.CONSENT_REQUIRED.code(), "The person must consent.", uri)
                        : Uni.createFrom().item(pages.consent(request, session, Scopes.parse(request.scope()), uri));
            });
        });
    }

    /**
     * An application asks for the second factor (RFC 9470), and the session had none to step up
     * with when it began (else needsSignIn asked for it). The person may have added one since, in
     * another browser: the directory says now. With one, they sign in again with it; without, a
     * page says where to set one up. prompt=none's answers go only to a trusted client.
     */
    private Uni<Response> stepUp(AuthorizationRequest request, LoginSessions.Session session, UriInfo uri) {
        return security.status(session).map(status -> status.twoFactorAuthentication())
                .onFailure(org.ziggurat.platform.rest.problem.FailureKinds::dependencyUnavailable).recoverWithItem(true)
                .chain(hasFactor -> {
                    if (hasFactor) {
                        return request.silent()
                                ? silentAnswer(request, session, OAuthError.LOGIN_REQUIRED.code(),
                                        "The person must sign in with their second factor.", uri)
                                : Uni.createFrom().item(pages.login(request, uri, null, null, 200));
                    }
                    return request.silent()
                            ? silentAnswer(request, session, "unmet_authentication_requirements",
                                    "The application asks for two-factor authentication, which the person has not set up.", uri)
                            : Uni.createFrom().item(secondFactorPages.required(request.app().name(), uri));
                });
    }

    /**
     * prompt=none's error: straight back to a client that is trusted with it (verified, or consented
     * to before); for any other, a page naming the destination, which the person may follow.
     */
    private Uni<Response> silentAnswer(AuthorizationRequest request, LoginSessions.Session session, String error,
            String description, UriInfo uri) {
        return requests.answersSilently(request, session).map(trusted -> trusted
                ? answers.redirectError(request, error, description)
                : answers.silentAnswerChoice(request, error, description, uri));
    }

    /** The sign-in of a request's pages: back to the request once signed in; the way on may end at the client. */
    SignInForm.Flow flow(AuthorizationRequest request, UriInfo uri) {
        return new SignInForm.Flow("login", request.app().clientId(), "/oauth/authorize", request.frontChannel(), uri,
                (message, login, status) -> pages.login(request, uri, message, login, status),
                created -> pages.signedIn(request, uri, created), AuthorizePages.formTarget(request));
    }

    /** The consent form's answer, from the signed-in person whose session's token it carried. */
    Uni<Response> decide(AuthorizationRequest request, boolean approved, LoginSessions.Session session, UriInfo uri) {
        if (request.asksForAnotherPerson(session.personId())) {
            // Core §3.1.2.2: never a code for another person than the one the client asked for.
            return PageForms.page(answers.redirectError(request, OAuthError.LOGIN_REQUIRED.code(),
                    "The application asked for another person's sign-in."));
        }
        if (!approved) {
            codes.denied(request, session);
            return PageForms.page(answers.redirectError(request, OAuthError.ACCESS_DENIED.code(), "The person denied the request."));
        }
        return codes.approve(request, session).map(code -> answers.codeRedirect(request, code, uri));
    }

    /** The next step of a request whose client, redirect URI and parameters are good; an error page otherwise. */
    Uni<Response> checked(Map<String, String> params, Function<AuthorizationRequest, Uni<Response>> next) {
        return requests.check(params).chain(request -> {
            if (request == null) {
                return Uni.createFrom().item(forms.error(400, params.get("client_id") == null
                        ? "The request names no application (client_id)."
                        : "The application is unknown, or the redirect URI is not one it registered."));
            }
            if (AuthorizationRequests.pushRequired(request)) {
                return Uni.createFrom().item(forms.error(400, "invalid_request: This application must push its "
                        + "authorization requests first (RFC 9126): start again from the application."));
            }
            String refusal = requests.refusal(request);
            return refusal != null ? Uni.createFrom().item(forms.error(400, refusal)) : next.apply(request)
                    .onFailure(AuthorizationCodes.NonceReplayed.class).recoverWithItem(() -> forms.error(400,
                            "This sign-in request was used already (its nonce). Start again from the application."));
        }).onFailure(AuthorizationRequests.PushedRequestRefused.class).recoverWithItem(() -> forms.error(400,
                "invalid_request: The request_uri is unknown, another application's, used already or expired. "
                        + "Start again from the application."))
                .onFailure(RequestObjects.RequestObjectRefused.class).recoverWithItem(e -> forms.error(400,
                        e.getMessage() + ". Start again from the application."));
    }
}
