package org.ziggurat.directory.client;

import io.quarkus.runtime.annotations.RegisterForReflection;
import org.ziggurat.platform.permissions.NamespaceAccess;

/**
 * A namespace (a person or an organization) and what one person may do in it, as the directory
 * says. {@code secondFactorRequired}: the person is a member of an organization that requires a
 * second factor and has none, so has only an outsider's rights there until they set one up.
 * {@code secondFactorSignInRequired}: the member has one, but the sign-in of this call did not use
 * it, so the same until they sign in with it.
 */
@RegisterForReflection
public record Namespace(String name, String kind, long id, String visibility, boolean read, boolean write, boolean admin,
        boolean secondFactorRequired, boolean secondFactorSignInRequired) {

    static final Namespace UNKNOWN = new Namespace("", "unknown", 0, "private", false, false, false, false, false);

    /** Why the member's rights are withheld here, for {@link NamespaceAccess}'s checks. */
    public NamespaceAccess.Withheld withheld() {
        return NamespaceAccess.Withheld.of(secondFactorRequired, secondFactorSignInRequired);
    }
}
