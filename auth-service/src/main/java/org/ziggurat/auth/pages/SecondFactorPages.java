package org.ziggurat.auth.pages;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.auth.authorization.PendingSignIns;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.passkeys.PasskeyChallenges;
import org.ziggurat.auth.passkeys.Passkeys;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The sign-in's second step, on whichever page signs in (authorization, device, account): the
 * form for a TOTP or recovery code, and the word that a recovery code was used and how many are left.
 */
@ApplicationScoped
class SecondFactorPages {

    private final Template secondFactor;
    private final Template recoveryUsed;
    private final Template required;
    private final TokenCrypto crypto;
    private final Passkeys passkeys;

    SecondFactorPages(@Location("second_factor") Template secondFactor, @Location("recovery_used") Template recoveryUsed,
            @Location("second_factor_required") Template required, TokenCrypto crypto, Passkeys passkeys) {
        this.passkeys = passkeys;
        this.secondFactor = secondFactor;
        this.required = required;
        this.recoveryUsed = recoveryUsed;
        this.crypto = crypto;
    }

    /**
     * The code's form, posting to {@code path} with the page's {@code params}, under a fresh CSRF
     * cookie; {@code pendingValue}, when not null, is set as the pending sign-in's cookie. With the
     * pending person's id (not 0), the form offers their passkey too. {@code formTarget}: the origin
     * where the sign-in may end (the client's, checked), which the form's CSP must let it lead to.
     */
    Response form(String path, Map<String, String> params, String formTarget, UriInfo uri, String message, int status,
            String pendingValue, long personId) {
        Response.ResponseBuilder page = PageView.of(secondFactor.data("error", message)
                        .data("params", AuthorizePages.Param.all(params))
                        .data("passkeyOptions", personId > 0
                                ? passkeys.signInOptions(PasskeyChallenges.Ceremony.SECOND_FACTOR, personId) : null), uri)
                .posting(path).beforeSession(crypto.newCsrfToken()).leadingTo(formTarget).answer(status);
        if (pendingValue != null) {
            page.cookie(PageHeaders.cookie(PendingSignIns.COOKIE, pendingValue, PagePaths.secure(uri),
                    (int) PendingSignIns.LIFETIME.toSeconds()));
        }
        return page.build();
    }

    /** The page's way on after the second factor, the pending sign-in's cookie cleared. */
    Response clearPending(Response signedIn, UriInfo uri) {
        return PageHeaders.withCookie(signedIn, pendingCleared(uri));
    }

    /**
     * Signed in with a recovery code: a page that says so and how many are left, with the link on
     * (where the page would have gone), and the session's cookies.
     */
    Response recoveryCodeUsed(Response signedIn, long left, UriInfo uri) {
        List<NewCookie> cookies = new ArrayList<>(signedIn.getCookies().values());
        cookies.add(pendingCleared(uri));
        return PageView.of(recoveryUsed.data("left", left).data("next", signedIn.getHeaderString("Location")), uri).answer(200)
                .cookie(cookies.toArray(NewCookie[]::new)).build();
    }

    /** An application asks for two-factor authentication, which the person has not set up: where to. */
    Response required(String appName, UriInfo uri) {
        return PageView.of(required.data("appName", appName).data("security", PagePaths.apiPath(uri, AccountPages.PATH)), uri)
                .answer(403).build();
    }

    private static NewCookie pendingCleared(UriInfo uri) {
        return PageHeaders.cookie(PendingSignIns.COOKIE, "", PagePaths.secure(uri), 0);
    }
}
