package org.ziggurat.auth.pages;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.auth.authorization.LoginSessions;
import org.ziggurat.auth.oauth.OAuthForm;
import org.ziggurat.directory.client.DirectoryClient;
import org.ziggurat.platform.rest.problem.FailureKinds;

import java.util.Map;
import java.util.function.Function;

/**
 * The account pages (the profile, the security section) on top of {@link PageForms}: a GET shows
 * the page to the session's person, else the sign-in form; a POST is a sign-in, or a change made
 * only with a live session whose CSRF token the form carries, which counts as the session's use.
 */
@ApplicationScoped
class AccountForms {

    /** A page's change, for the session's person. */
    interface Change {
        Uni<Response> apply(String action, OAuthForm form, LoginSessions.Session session);
    }

    private final PageForms forms;
    private final LoginSessions sessions;
    private final AuthorizePages authorizePages;

    AccountForms(PageForms forms, LoginSessions sessions, AuthorizePages authorizePages) {
        this.forms = forms;
        this.sessions = sessions;
        this.authorizePages = authorizePages;
    }

    /** The sign-in of the account page at {@code path}: its form, and back to the page once signed in. */
    SignInForm.Flow flow(String path, UriInfo uri) {
        return new SignInForm.Flow("account", "-", path, Map.of(), uri,
                (message, login, status) -> authorizePages.loginPage(path, null, null, Map.of(), null, uri, message, login, status),
                created -> authorizePages.backWithSession(path, Map.of(), uri, created), null);
    }

    /** The page for the session's person, or the sign-in form; an account deleted meanwhile ends its session. */
    Uni<Response> show(String cookie, SignInForm.Flow flow, Function<LoginSessions.Session, Uni<Response>> page) {
        return sessions.find(cookie).chain(session -> session == null
                ? PageForms.page(flow.formAgain().show(null, null, 200))
                : page.apply(session)
                        // The account was deleted elsewhere (the API) a moment ago: this sign-in ends with it.
                        .onFailure(DirectoryClient.NotFound.class).recoverWithUni(() -> sessions.end(cookie)
                                .map(ended -> flow.formAgain().show("That account no longer exists.", null, 200))));
    }

    Uni<Response> post(PagePost post, SignInForm.Flow flow, Change change) {
        return forms.take(post, form -> forms.signInOr(post, form, () -> flow,
                action -> withSession(post, PageForms.token(form), flow, session -> change.apply(action, form, session))));
    }

    /** A change with the live session whose CSRF token the form carried ({@code csrf}). */
    Uni<Response> withSession(PagePost post, String csrf, SignInForm.Flow flow,
            Function<LoginSessions.Session, Uni<Response>> change) {
        return forms.signedIn(post, csrf, flow, PageForms.Unsent.ACCOUNT,
                        session -> sessions.seen(session.hash()).chain(() -> change.apply(session)))
                .onFailure(FailureKinds::dependencyUnavailable).recoverWithItem(() -> forms.error(503,
                        "Your account cannot be changed for a moment. Try again shortly."));
    }

    /** Post/redirect/get after a change (the Location set as it is: see {@link PagePaths#apiPath}). */
    static Response changed(String path, UriInfo uri) {
        return PagePaths.seeOther(PagePaths.apiPath(uri, path)).build();
    }
}
