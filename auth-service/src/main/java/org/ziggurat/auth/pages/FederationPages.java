package org.ziggurat.auth.pages;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.auth.authorization.FederationAttempts;
import org.ziggurat.auth.authorization.LoginSessions;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.federation.FederationSettings;
import org.ziggurat.auth.federation.Upstream;
import org.ziggurat.auth.federation.UsernameProposals;
import org.ziggurat.auth.passkeys.PasskeyChallenges;
import org.ziggurat.auth.passkeys.Passkeys;
import org.ziggurat.directory.client.DirectoryClient;

import java.util.Map;

/** The pages of a sign-in through another provider: the way back from it, the choice for a new identity, its errors. */
@ApplicationScoped
class FederationPages {

    private final Template continueForm;
    private final Template identity;
    private final Template error;
    private final TokenCrypto crypto;
    private final FederationSettings settings;

    private final Template onward;
    private final Template confirm;
    private final Passkeys passkeys;

    FederationPages(@Location("federation_continue") Template continueForm, @Location("federation_identity") Template identity,
            @Location("federation_error") Template error, @Location("federation_onward") Template onward, TokenCrypto crypto,
            FederationSettings settings, Passkeys passkeys, @Location("federation_confirm") Template confirm) {
        this.confirm = confirm;
        this.onward = onward;
        this.passkeys = passkeys;
        this.continueForm = continueForm;
        this.identity = identity;
        this.error = error;
        this.crypto = crypto;
        this.settings = settings;
    }

    /**
     * The provider's answer as a form that posts itself here (a GET changes nothing), to the path it
     * came to ({@code callbackPath}: the provider's own); {@code formTarget}: the origin where the
     * sign-in may end (the client's), which the form must be let lead to.
     */
    Response continueForm(Map<String, String> fields, String formTarget, UriInfo uri, String callbackPath) {
        return PageView.of(continueForm.data("params", AuthorizePages.Param.all(fields)), uri)
                .posting(callbackPath).leadingTo(formTarget).answer(200).build();
    }

    /**
     * The pages of a new account that waits for its address: {@code mailed} (the link went out, the
     * held identity is released), {@code confirm} (the link's page: a button, nothing changes on a
     * GET), {@code done}, {@code taken} ({@code message} says what), {@code gone}.
     */
    Response confirmation(int status, String state, String provider, String email, String username, String token,
            String message, UriInfo uri) {
        return PageView.of(confirm.data("state", state).data("provider", provider).data("email", email)
                .data("username", username).data("token", token).data("message", message)
                .data("account", PagePaths.apiPath(uri, ProfilePages.PATH)), uri)
                .posting(FederationResource.CONFIRMATION).answer(status).build();
    }

    /**
     * On to the provider the person chose, with the attempt's cookie for this browser: a page whose
     * script follows its link. Not a redirect: the sign-in page's form may only lead to this site
     * (its CSP's form-action), and a provider's authorization endpoint is on another.
     */
    Response toProvider(String providerName, String providerUrl, String browserValue, UriInfo uri) {
        return PageView.of(onward.data("provider", providerName).data("url", providerUrl), uri).answer(200)
                .cookie(PageHeaders.cookie(FederationAttempts.COOKIE, browserValue, PagePaths.secure(uri),
                        (int) settings.attemptLifetime().toSeconds()))
                .build();
    }

    /**
     * The choice for an identity no account uses: link it to the signed-in person ({@code session}),
     * or make an account with it, or sign in to one to link it. {@code typed}: the new account's
     * fields as the person typed them (null: proposed from the provider's claims).
     */
    Response identity(FederationAttempts.Held held, Upstream provider, LoginSessions.Session session, String message,
            int status, String[] typed, String login, UriInfo uri) {
        var who = held.identity();
        // Its forms (sign in, make an account, link) lead back where the sign-in began: perhaps the client.
        return PageView.of(identity.data("provider", provider.displayName()).data("label", who.label()).data("error", message)
                .data("username", session == null ? null : session.username())
                .data("sessionCsrf", session == null ? null : session.csrfToken())
                .data("confirmNeeded", session != null && !session.recent())
                .data("newAccounts", provider.newAccounts()).data("login", login)
                .data("proposedUsername", typed != null ? typed[0] : UsernameProposals.of(who))
                .data("proposedName", typed != null ? typed[1] : who.name() == null ? "" : who.name())
                .data("proposedEmail", typed != null ? typed[2] : who.email() == null ? "" : who.email())
                .data("emailVerified", who.emailVerified())
                .data("passkeyOptions", session == null ? passkeys.signInOptions(PasskeyChallenges.Ceremony.SIGN_IN, 0) : null), uri)
                .posting(FederationIdentityResource.PATH).beforeSession(crypto.newCsrfToken())
                .leadingTo(held.back().formTarget()).answer(status).build();
    }

    /** Held: on to the choice page, with the held identity's cookie; the attempt's cookie has served. */
    Response toChoice(String heldValue, UriInfo uri) {
        // The Location header itself: JAX-RS's seeOther would resolve the path against the base URI,
        // with the gateway's prefix twice.
        return PagePaths.seeOther(PagePaths.apiPath(uri, FederationIdentityResource.PATH))
                .cookie(PageHeaders.cookie(FederationAttempts.PENDING_COOKIE, heldValue, PagePaths.secure(uri),
                        (int) settings.attemptLifetime().toSeconds()))
                .cookie(attemptCleared(uri)).build();
    }

    /**
     * An error, with a way to start again where the sign-in began ({@code back}, null: none known).
     * The browser's attempt cookie stays: it may belong to a sign-in that is still going on.
     */
    Response error(int status, String message, FederationAttempts.Return back, UriInfo uri) {
        String again = back == null ? null : PagePaths.withQuery(PagePaths.apiPath(uri, back.path()), back.params());
        return PageView.of(error.data("message", message).data("again", again), uri).answer(status).build();
    }

    /** An error that ended the browser's attempt (its answer was taken): its cookie goes too. */
    Response attemptEnded(int status, String message, FederationAttempts.Return back, UriInfo uri) {
        return PageHeaders.withCookie(error(status, message, back, uri), attemptCleared(uri));
    }

    /** What a conflict took (the username, the address, the identity), in words; for a taken address, the way on. */
    static String taken(DirectoryClient.Conflict conflict) {
        return conflict.detail() != null ? conflict.detail() + (conflict.detail().contains("email")
                ? " If it is yours, sign in to that account to link this one." : "")
                : "That username or address is taken.";
    }

    jakarta.ws.rs.core.NewCookie attemptCleared(UriInfo uri) {
        return PageHeaders.cookie(FederationAttempts.COOKIE, "", PagePaths.secure(uri), 0);
    }

    jakarta.ws.rs.core.NewCookie heldCleared(UriInfo uri) {
        return PageHeaders.cookie(FederationAttempts.PENDING_COOKIE, "", PagePaths.secure(uri), 0);
    }
}
