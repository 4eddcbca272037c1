package org.ziggurat.platform.permissions;

import org.ziggurat.platform.problem.ProblemException;

/**
 * Who may read and write content in a namespace (a person's or an organization's): the rule the
 * services whose content lives in namespaces check first, in their service layer. Reading a
 * namespace that is not public needs membership: to anyone else it is 404, as if it did not
 * exist. Writing needs the {@code write} scope (creating) or {@code update} (changing), checked
 * before, and write rights: 403. A member of an organization that requires a second factor, who
 * has none, is refused as an outsider would be, but with a 403 that says why and what to do.
 */
public final class NamespaceAccess {

    private NamespaceAccess() {
    }

    /** {@code requested}: the name as the request said it. */
    public static void requireRead(String requested, boolean mayRead) {
        requireRead(requested, mayRead, false);
    }

    /** {@code secondFactorRequired}: the caller is a member whose rights wait for a second factor. */
    public static void requireRead(String requested, boolean mayRead, boolean secondFactorRequired) {
        if (!mayRead) {
            throw secondFactorRequired ? secondFactorRequired(requested)
                    : ProblemException.notFound("No namespace is called '" + requested + "'.");
        }
    }

    /** {@code name}: the namespace's own name. */
    public static void requireWrite(String name, boolean mayWrite) {
        requireWrite(name, mayWrite, false);
    }

    public static void requireWrite(String name, boolean mayWrite, boolean secondFactorRequired) {
        if (!mayWrite) {
            throw secondFactorRequired ? secondFactorRequired(name)
                    : ProblemException.forbidden("You may not write in the namespace '" + name + "'.");
        }
    }

    static ProblemException secondFactorRequired(String name) {
        return new ProblemException(403, "Second Factor Required", "The organization '" + name + "' requires its "
                + "members to sign in with a second factor. Set one up on your account's security page "
                + "(/account/security), then try again.");
    }
}
