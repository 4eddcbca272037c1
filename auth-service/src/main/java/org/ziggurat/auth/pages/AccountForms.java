package org.ziggurat.auth.pages;

import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import org.ziggurat.auth.authorization.LoginSessions;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.http.CallerAddress;
import org.ziggurat.auth.oauth.OAuthForm;
import org.ziggurat.platform.rest.problem.FailureKinds;

/**
 * The POST of an account page (the profile, the security section): a sign-in action with the
 * sign-in form's CSRF cookie, or a change, made only with a live session whose CSRF token the
 * form carries; the session counts as seen by it.
 */
@ApplicationScoped
class AccountForms {

    /** A page's change, for the session's person, from the client's address. */
    interface Change {
        Uni<Response> apply(String action, OAuthForm form, LoginSessions.Session session, String address);
    }

    private final SignInForm signInForm;
    private final LoginSessions sessions;
    private final AuthorizePages authorizePages;

    AccountForms(SignInForm signInForm, LoginSessions sessions, AuthorizePages authorizePages) {
        this.signInForm = signInForm;
        this.sessions = sessions;
        this.authorizePages = authorizePages;
    }

    Uni<Response> post(String contentType, String body, String cookie, String loginCsrfCookie, HttpServerRequest http,
            SignInForm.Flow flow, Change change) {
        return authorizePages.withForm(contentType, body, form -> {
            String action = form.get("action");
            if ("login".equals(action)) {
                return signInForm.submit(form, loginCsrfCookie, http, flow);
            }
            if ("second_factor".equals(action)) {
                return signInForm.submitSecondFactor(form, loginCsrfCookie, http, flow);
            }
            if ("passkey".equals(action)) {
                return signInForm.submitPasskey(form, loginCsrfCookie, flow);
            }
            return withSession(cookie, form.get("csrf"), flow,
                    session -> change.apply(action, form, session, CallerAddress.of(http)));
        });
    }

    /** A change with the live session whose CSRF token the form carried ({@code csrf}); else the refusal. */
    Uni<Response> withSession(String cookie, String csrf, SignInForm.Flow flow,
            java.util.function.Function<LoginSessions.Session, Uni<Response>> change) {
        return sessions.find(cookie).chain(session -> {
            if (session == null) {
                return Uni.createFrom().item(flow.formAgain().show("Your session ended. Sign in again.", null, 401));
            }
            if (!TokenCrypto.sameValue(csrf, session.csrfToken())) {
                return Uni.createFrom().item(authorizePages.error(403, "The form was not sent by this site. Nothing was changed."));
            }
            return sessions.seen(session.hash()).chain(() -> change.apply(session));
        }).onFailure(FailureKinds::dependencyUnavailable).recoverWithItem(() -> authorizePages.error(503,
                "Your account cannot be changed for a moment. Try again shortly."));
    }
}
