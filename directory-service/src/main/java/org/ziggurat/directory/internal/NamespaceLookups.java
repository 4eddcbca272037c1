package org.ziggurat.directory.internal;

import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.directory.organizations.MembershipRules;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;

/**
 * What a person may do in a namespace, for the services whose content lives in namespaces: the
 * rights {@link MembershipRules} gives from the namespace's owner and the person's membership.
 */
@ApplicationScoped
public class NamespaceLookups {

    /**
     * A namespace as the other services need it, with the rights of one person in it.
     * {@code secondFactorRequired}: the person is a member of an organization that requires a
     * second factor, and has none, so has no member's rights until they set one up.
     * {@code secondFactorSignInRequired}: the member has one but did not sign in with it, so has
     * none until they do (the services answer RFC 9470's insufficient_user_authentication).
     */
    @RegisterForReflection
    public record Namespace(String name, String kind, long id, String visibility, boolean read, boolean write,
            boolean admin, boolean secondFactorRequired, boolean secondFactorSignInRequired) {
    }

    private final Callers callers;
    private final InternalRepository repository;

    NamespaceLookups(Callers callers, InternalRepository repository) {
        this.callers = callers;
        this.repository = repository;
    }

    /**
     * For another service only; 404 when no namespace has the name. {@code personId} 0 is
     * anonymous; {@code secondFactorSignIn}: they signed in with a second factor.
     */
    public Uni<Namespace> rights(String name, long personId, boolean secondFactorSignIn) {
        return callers.service().chain(service -> name.length() > 39 ? Uni.createFrom().<Namespace>nullItem()
                        : repository.namespace(name, personId).map(row -> row == null ? null
                                : rights(row, personId, secondFactorSignIn)))
                .onItem().ifNull().failWith(() -> ProblemException.notFound("No namespace is called '" + name + "'."));
    }

    static Namespace rights(InternalRepository.NamespaceRow row, long personId, boolean secondFactorSignIn) {
        if ("person".equals(row.kind())) {
            MembershipRules.Rights rights = MembershipRules.inPersonNamespace(row.personId(), personId);
            return new Namespace(row.name(), "person", row.personId(), "public", rights.read(), rights.write(),
                    rights.admin(), false, false);
        }
        // A member without the second factor the organization requires keeps the membership, not
        // its rights: an outsider's, and the services say why. So does a member who has one and
        // signed in without it (a token from before they set it up, or from the password grant).
        boolean withheld = row.twoFactorRequired() && row.state() != null && (!row.secondFactor() || !secondFactorSignIn);
        MembershipRules.Rights rights = withheld ? MembershipRules.inOrganizationNamespace(row.visibility(), null, null)
                : MembershipRules.inOrganizationNamespace(row.visibility(), row.role(), row.state());
        boolean active = withheld && "active".equals(row.state());
        return new Namespace(row.name(), "organization", row.organizationId(), row.visibility(), rights.read(),
                rights.write(), rights.admin(), active && !row.secondFactor(), active && row.secondFactor());
    }
}
