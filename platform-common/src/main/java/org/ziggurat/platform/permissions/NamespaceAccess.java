package org.ziggurat.platform.permissions;

import org.ziggurat.platform.problem.ProblemException;

/**
 * Who may read and write content in a namespace (a person's or an organization's): the rule the
 * services whose content lives in namespaces check first, in their service layer. Reading a
 * namespace that is not public needs membership: to anyone else it is 404, as if it did not
 * exist. Writing needs the {@code write} scope (creating) or {@code update} (changing), checked
 * before, and write rights: 403.
 */
public final class NamespaceAccess {

    private NamespaceAccess() {
    }

    /** {@code requested}: the name as the request said it. */
    public static void requireRead(String requested, boolean mayRead) {
        if (!mayRead) {
            throw ProblemException.notFound("No namespace is called '" + requested + "'.");
        }
    }

    /** {@code name}: the namespace's own name. */
    public static void requireWrite(String name, boolean mayWrite) {
        if (!mayWrite) {
            throw ProblemException.forbidden("You may not write in the namespace '" + name + "'.");
        }
    }
}
