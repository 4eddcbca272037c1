package org.ziggurat.auth.pages;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import org.ziggurat.auth.authorization.LoginSessions;
import org.ziggurat.auth.authorization.SignIns;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.OAuthForm;

import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The one way a page takes its form, as Spring MVC's and Renarde's forms go: the body read as a
 * form, else the error page; the sign-in actions under the sign-in form's double-submit cookie;
 * every other action with the live session whose CSRF token the form carries. A form that fails a
 * check changes nothing: the security log records it and the person reads the error page. What a
 * page then does with its form is its own; the password asked again is {@link Sudo}'s step.
 * Nothing else compares a form's token.
 */
@ApplicationScoped
class PageForms {

    static final String SESSION_ENDED = "Your session ended. Sign in again.";

    /**
     * A form that this site did not send (its token is not the session's, or not the sign-in
     * form's cookie): the page's name in the security log (null: the name of the page that signs
     * in), and what the person reads.
     */
    record Unsent(String page, String message) {
        static final Unsent ACCOUNT = new Unsent("account", "The form was not sent by this site. Nothing was changed.");
        static final Unsent LINK = new Unsent("federation", "The form was not sent by this site. Nothing was changed.");
        static final Unsent DEVICE = new Unsent("device", "The form was not sent by this site. Nothing was shared.");
        static final Unsent CONSENT = new Unsent("consent", "The consent form was not sent by this site. Nothing was shared.");
        static final Unsent LOGOUT = new Unsent("logout", "The sign-out form was not sent by this site. You are still signed in.");
        static final Unsent SIGN_IN = new Unsent(null, "The sign-in form expired or was not sent by this site. Start again.");
        static final Unsent NEW_ACCOUNT = new Unsent("federation", "The form expired or was not sent by this site. Start again.");
    }

    private final SignInForm signInForm;
    private final LoginSessions sessions;
    private final SignIns signIns;
    private final Template error;

    PageForms(SignInForm signInForm, LoginSessions sessions, SignIns signIns, @Location("error") Template error) {
        this.signInForm = signInForm;
        this.sessions = sessions;
        this.signIns = signIns;
        this.error = error;
    }

    /** The CSRF token a form carries back ({@link PageView} puts it there). */
    static String token(OAuthForm form) {
        return form.get("csrf");
    }

    /** The POST's body as a form ({@code application/x-www-form-urlencoded}) for {@code then}; else the error page (400). */
    Uni<Response> take(PagePost post, Function<OAuthForm, Uni<Response>> then) {
        OAuthForm form;
        try {
            form = OAuthForm.parse(post.contentType(), post.body());
        } catch (OAuthException e) {
            return page(error(400, e.getMessage()));
        }
        return then.apply(form);
    }

    /**
     * A page that signs in: its sign-in actions ({@code login}, {@code second_factor},
     * {@code passkey}) go to {@link SignInForm} once the sign-in form's cookie is checked; any
     * other action is the page's {@code own} ("" for none). The page's sign-in ({@code flow}) is
     * made only for those.
     */
    Uni<Response> signInOr(PagePost post, OAuthForm form, Supplier<SignInForm.Flow> flow, Function<String, Uni<Response>> own) {
        String given = form.get("action");
        String action = given == null ? "" : given;
        return switch (action) {
            case "login" -> signIn(post, form, flow.get(), signInForm::submit);
            case "second_factor" -> signIn(post, form, flow.get(), signInForm::submitSecondFactor);
            case "passkey" -> signIn(post, form, flow.get(), (signIn, http, page) -> signInForm.submitPasskey(signIn, page));
            default -> own.apply(action);
        };
    }

    private interface SignInStep {
        Uni<Response> submit(OAuthForm form, HttpServerRequest http, SignInForm.Flow flow);
    }

    private Uni<Response> signIn(PagePost post, OAuthForm form, SignInForm.Flow flow, SignInStep step) {
        return beforeSession(post, form, flow, Unsent.SIGN_IN, () -> step.submit(form, post.http(), flow));
    }

    /** A form sent before there is a session: {@code then} when it carries the sign-in form's cookie's token. */
    Uni<Response> beforeSession(PagePost post, OAuthForm form, SignInForm.Flow flow, Unsent unsent,
            Supplier<Uni<Response>> then) {
        return TokenCrypto.sameValue(token(form), post.signInCookie()) ? then.get()
                : refused(unsent, flow.pageName(), flow.clientId(), null);
    }

    /**
     * A form of a signed-in person: {@code then} with the live session whose CSRF token it carries
     * ({@code csrf}); without a session, the page's sign-in form again (401).
     */
    Uni<Response> signedIn(PagePost post, String csrf, SignInForm.Flow flow, Unsent unsent,
            Function<LoginSessions.Session, Uni<Response>> then) {
        return sessions.find(post.sessionCookie()).chain(session -> session == null
                ? page(flow.formAgain().show(SESSION_ENDED, null, 401))
                : withToken(csrf, session, flow.clientId(), unsent, () -> then.apply(session)));
    }

    /** {@code then} when the form carries the session's CSRF token ({@code csrf}). */
    Uni<Response> withToken(String csrf, LoginSessions.Session session, String clientId, Unsent unsent,
            Supplier<Uni<Response>> then) {
        return TokenCrypto.sameValue(csrf, session.csrfToken()) ? then.get() : refused(unsent, null, clientId, session);
    }

    private Uni<Response> refused(Unsent unsent, String pageName, String clientId, LoginSessions.Session session) {
        signIns.csrfRefused(unsent.page() == null ? pageName : unsent.page(), clientId, session);
        return page(error(403, unsent.message()));
    }

    Uni<Response> unknownAction() {
        return page(error(400, "Unknown action."));
    }

    /** The error page: what cannot go on. */
    Response error(int status, String message) {
        return PageHeaders.page(status, error.data("assets", "/oauth/assets").data("message", message).render(), null).build();
    }

    static Uni<Response> page(Response response) {
        return Uni.createFrom().item(response);
    }
}
