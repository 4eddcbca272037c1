package org.ziggurat.auth.pages;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.core.Response;
import org.ziggurat.auth.authorization.AccountSecurity;
import org.ziggurat.auth.oauth.OAuthForm;

/**
 * The step before a sensitive change of a signed-in person ("sudo mode", GitHub's term): what
 * they gave to confirm who they are, and, when that is refused, their page again saying so in its
 * words, nothing changed. Whether a recent sign-in is enough is {@link AccountSecurity}'s; a page
 * asks for the password when its session's sign-in is not recent.
 */
final class Sudo {

    static final String TOO_MANY = "Too many attempts. Wait a few minutes and try again.";

    /** What a page says after "Confirm with your password", and what nothing was. */
    record Words(String asked, String nothing) {
        static final Words SECURITY = new Words(" (or a passkey)", "changed");
        static final Words ACCOUNT = new Words("", "changed");
        static final Words LINK_ANOTHER = new Words(" to link another account", "linked");
        static final Words LINK_IT = new Words(" to link it", "linked");

        String refused() {
            return "Confirm with your password" + asked + ": it was missing or not right. Nothing was " + nothing + ".";
        }
    }

    /** A page again, with a message above its forms, at a status. */
    interface Again {
        Uni<Response> show(String message, int status);
    }

    private Sudo() {
    }

    /** The password, or a passkey's assertion ({@code credential}) in its place. */
    static AccountSecurity.Confirmation given(OAuthForm form) {
        return new AccountSecurity.Confirmation(form.get("password"), form.get("credential"));
    }

    /** The password alone: the form's credential, if any, is not an assertion (a new passkey's registration). */
    static AccountSecurity.Confirmation password(OAuthForm form) {
        return new AccountSecurity.Confirmation(form.get("password"), null);
    }

    /** {@code change}, which may ask for the password again: refused, the page again says why (401; 429 after too many). */
    static Uni<Response> confirmed(Uni<Response> change, Words words, Again again) {
        return change.onFailure(AccountSecurity.SudoRefused.class).recoverWithUni(e -> ((AccountSecurity.SudoRefused) e).throttled()
                ? again.show(TOO_MANY, 429) : again.show(words.refused(), 401));
    }
}
