package org.ziggurat.platform.permissions;

import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.problem.StepUpRequired;
import org.ziggurat.platform.token.PlatformClaims;

/**
 * Who may read and write content in a namespace (a person's or an organization's): the rule the
 * services whose content lives in namespaces check first, in their service layer. Reading a
 * namespace that is not public needs membership: to anyone else it is 404, as if it did not
 * exist. Writing needs the {@code write} scope (creating) or {@code update} (changing), checked
 * before, and write rights: 403. A member of an organization that requires a second factor is
 * refused as an outsider would be while its rights are withheld ({@link Withheld}), with an answer
 * that says why and what to do.
 */
public final class NamespaceAccess {

    /** Why a member's rights in an organization's namespace are withheld, if they are. */
    public enum Withheld {
        /** They are not: the rights are what membership gives. */
        NOTHING,
        /** The organization requires a second factor and the member has none: 403, set one up. */
        UNTIL_SECOND_FACTOR,
        /**
         * The member has one, but did not sign in with it for this token: 401 with RFC 9470's
         * {@code insufficient_user_authentication}, sign in again with it.
         */
        UNTIL_SIGN_IN_WITH_SECOND_FACTOR;

        public static Withheld of(boolean secondFactorRequired, boolean secondFactorSignInRequired) {
            return secondFactorRequired ? UNTIL_SECOND_FACTOR
                    : secondFactorSignInRequired ? UNTIL_SIGN_IN_WITH_SECOND_FACTOR : NOTHING;
        }
    }

    private NamespaceAccess() {
    }

    /** {@code requested}: the name as the request said it. */
    public static void requireRead(String requested, boolean mayRead) {
        requireRead(requested, mayRead, Withheld.NOTHING);
    }

    public static void requireRead(String requested, boolean mayRead, Withheld withheld) {
        if (!mayRead) {
            throw withheld == Withheld.NOTHING ? ProblemException.notFound("No namespace is called '" + requested + "'.")
                    : refusal(requested, withheld);
        }
    }

    /** {@code name}: the namespace's own name. */
    public static void requireWrite(String name, boolean mayWrite) {
        requireWrite(name, mayWrite, Withheld.NOTHING);
    }

    public static void requireWrite(String name, boolean mayWrite, Withheld withheld) {
        if (!mayWrite) {
            throw withheld == Withheld.NOTHING ? ProblemException.forbidden("You may not write in the namespace '" + name + "'.")
                    : refusal(name, withheld);
        }
    }

    static ProblemException refusal(String name, Withheld withheld) {
        if (withheld == Withheld.UNTIL_SIGN_IN_WITH_SECOND_FACTOR) {
            return new StepUpRequired("The organization '" + name + "' requires its members to sign in with a second "
                    + "factor, and this token comes from a sign-in without one. Sign in again with it (an authorization "
                    + "request with acr_values=" + PlatformClaims.MULTI_FACTOR + "), then try again with the new token.",
                    PlatformClaims.MULTI_FACTOR);
        }
        return new ProblemException(403, "Second Factor Required", "The organization '" + name + "' requires its "
                + "members to sign in with a second factor. Set one up on your account's security page "
                + "(/account/security), then try again.");
    }
}
