package org.ziggurat.auth.pages;

import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import org.ziggurat.auth.authorization.SignIns;
import org.ziggurat.auth.authorization.LoginSessions;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.http.CallerAddress;
import org.ziggurat.auth.oauth.OAuthForm;
import org.ziggurat.platform.rest.problem.FailureKinds;

import java.util.function.Function;

/**
 * The sign-in form that the authorization and device pages share: its double-submit CSRF cookie,
 * then the directory's answer, shown as the page that asked shows its form.
 */
@ApplicationScoped
class SignInForm {

    /** How a page shows its sign-in form again, with a message and the login typed. */
    interface FormAgain {
        Response show(String message, String login, int status);
    }

    private final SignIns signIns;
    private final AuthorizePages pages;

    SignInForm(SignIns signIns, AuthorizePages pages) {
        this.signIns = signIns;
        this.pages = pages;
    }

    /**
     * {@code pageName} and {@code clientId} (or "-") are for the security log; {@code signedIn} is
     * how the page goes on once the person is signed in.
     */
    Uni<Response> submit(OAuthForm form, String csrfCookie, HttpServerRequest http, String pageName, String clientId,
            FormAgain formAgain, Function<LoginSessions.Created, Response> signedIn) {
        if (!TokenCrypto.sameValue(form.get("csrf"), csrfCookie)) {
            signIns.csrfRefused(pageName, clientId, null);
            return Uni.createFrom().item(pages.error(403, "The sign-in form expired or was not sent by this site. Start again."));
        }
        String login = form.get("login");
        if (login == null || form.get("password") == null) {
            return Uni.createFrom().item(formAgain.show("Enter your username or email and your password.", login, 400));
        }
        return signIns.signIn(pageName, clientId, login, form.get("password"), CallerAddress.of(http))
                .map(signedIn)
                .onFailure(SignIns.SignInRefused.class).recoverWithItem(e ->
                        ((SignIns.SignInRefused) e).throttled()
                                ? formAgain.show("Too many sign-in attempts. Wait a few minutes and try again.", login, 429)
                                : formAgain.show("The username or password is not right.", login, 401))
                .onFailure(FailureKinds::dependencyUnavailable).recoverWithItem(() ->
                        formAgain.show("Signing in is not possible for a moment. Try again shortly.", login, 503));
    }
}
