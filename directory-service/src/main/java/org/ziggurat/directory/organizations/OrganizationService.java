package org.ziggurat.directory.organizations;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.directory.people.PersonRow;
import org.ziggurat.platform.permissions.NamespaceAccess;
import org.ziggurat.platform.permissions.NamespaceAccess.Withheld;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.problem.StepUpRequired;
import org.ziggurat.platform.input.EdgeInput;
import org.ziggurat.platform.token.Caller;
import org.ziggurat.platform.token.PlatformClaims;

import java.util.List;
import org.ziggurat.platform.token.ScopeNames;

/**
 * The rules of organizations ({@link MembershipService}: of their memberships). What a viewer
 * may not see is 404, never 403, so that a private organization's existence does not leak;
 * writes need the {@code admin} scope, and an admin who meets the organization's requirement of a
 * second factor (its administration is held to it as its data is).
 */
@ApplicationScoped
public class OrganizationService {

    private static final Logger LOG = Logger.getLogger(OrganizationService.class);

    private final OrganizationRepository organizations;

    OrganizationService(OrganizationRepository organizations) {
        this.organizations = organizations;
    }

    /** The viewer id for visibility checks: the person, or anonymous. */
    public static long viewer(Caller caller) {
        return caller.userId().orElse(OrganizationRepository.ANONYMOUS);
    }

    /** How many organizations the viewer may see, for the list's total. */
    public Uni<Long> countVisible(long viewer) {
        return organizations.countVisible(viewer);
    }

    /** A page of the organizations the viewer may see, newest first. */
    public Uni<List<OrganizationRow>> newest(long viewer, long offset, int limit) {
        return organizations.newest(viewer, offset, limit);
    }

    /** Every organization in which the calling person is an active member, private ones included. */
    public Uni<List<OrganizationRow>> ofCaller(Caller caller) {
        long me = caller.requireUser();
        return organizations.ofPerson(me, me);
    }

    /** A person's organizations that the viewer may see. */
    public Uni<List<OrganizationRow>> ofPerson(long personId, long viewer) {
        return organizations.ofPerson(personId, viewer);
    }

    /** The active members of an organization the viewer may see; 404 otherwise. */
    public Uni<List<PersonRow>> activeMembers(long id, long viewer) {
        return visible(id, viewer).chain(org -> organizations.activeMembers(org.id()));
    }

    /** Whether the person is an active member of an organization the viewer may see (404 for one they may not). */
    public Uni<Boolean> hasActiveMember(long id, long personId, long viewer) {
        return visible(id, viewer).chain(org -> organizations.membership(id, personId)).map(m -> m != null && m.isActive());
    }

    /** The organization, if the viewer may see it (public, or they belong to it); 404 otherwise. */
    public Uni<OrganizationRow> visible(long id, long viewer) {
        return organizations.byId(id).chain(org -> {
            if (org == null) {
                return Uni.createFrom().failure(notFound());
            }
            if (org.isPublic()) {
                return Uni.createFrom().item(org);
            }
            return organizations.membership(id, viewer)
                    .map(m -> MembershipRules.sees(org, m) ? org : null)
                    .onItem().ifNull().failWith(OrganizationService::notFound);
        });
    }

    public Uni<OrganizationRow> create(Caller caller, EdgeInput<OrganizationFields> input) {
        long creator = caller.requireUserWithScope(ScopeNames.ADMIN);
        OrganizationFields f = input.get();
        return organizations.create(f.name(), f.displayName(), f.visibility(), creator)
                .invoke(org -> LOG.infof("organization created: id=%d name=%s by person %d", org.id(), org.name(), creator));
    }

    /**
     * By an admin who meets the organization's requirement of a second factor ({@link #requireAdmin});
     * turning the requirement on or off needs a sign-in with one, whether it is on or not.
     */
    public Uni<OrganizationRow> update(Caller caller, long id, EdgeInput<OrganizationFields> input) {
        long person = caller.requireUserWithScope(ScopeNames.ADMIN);
        OrganizationFields f = input.get();
        Uni<OrganizationRow> allowed = requireAdmin(id, person, caller.signedInWithSecondFactor());
        if (f.twoFactorRequired() != null) {
            // As GitHub asks: whoever requires it of the members has one, or would lock themselves out;
            // and whoever switches it off proves they are who signed in, with it.
            allowed = allowed.call(org -> organizations.hasSecondFactor(person).invoke(has -> {
                Withheld withheld = MembershipRules.toChangeTheRequirement(has, caller.signedInWithSecondFactor());
                if (withheld != Withheld.NOTHING) {
                    LOG.infof("organization %d: change of its second-factor requirement refused to person %d (%s)", id,
                            person, withheld);
                    throw requirementChangeRefused(org, withheld);
                }
            }));
        }
        return allowed.chain(() -> organizations.update(id, f.displayName(), f.visibility(), f.twoFactorRequired()))
                .invoke(org -> {
                    if (f.twoFactorRequired() != null) {
                        LOG.infof("organization %d: second factor required of members=%s, by person %d", id,
                                f.twoFactorRequired(), person);
                    }
                });
    }

    public Uni<Void> delete(Caller caller, long id) {
        long person = caller.requireUserWithScope(ScopeNames.ADMIN);
        return requireAdmin(id, person, caller.signedInWithSecondFactor()).chain(() -> organizations.delete(id, person))
                .invoke(() -> LOG.infof("organization deleted: id=%d by person %d", id, person));
    }

    /**
     * The organization, when the person is an active admin of it who meets its requirement of a
     * second factor: 404 when it is invisible to them, 403 when visible but they are not an active
     * admin. An admin whose sign-in falls short of the requirement is refused as in its data
     * ({@link NamespaceAccess}): 403 {@code Second Factor Required} without one, RFC 9470's 401
     * with one but a sign-in without it ({@code secondFactorSignIn}: this call's sign-in used one).
     */
    Uni<OrganizationRow> requireAdmin(long id, long person, boolean secondFactorSignIn) {
        return visible(id, person).call(org -> organizations.membership(id, person).chain(m -> {
            if (!MembershipRules.administers(m)) {
                return Uni.createFrom().failure(ProblemException.forbidden("Only an admin of this organization may do this."));
            }
            if (!org.twoFactorRequired()) {
                return Uni.createFrom().voidItem();
            }
            return organizations.hasSecondFactor(person).invoke(has -> {
                Withheld withheld = MembershipRules.inAdministration(true, has, secondFactorSignIn);
                if (withheld != Withheld.NOTHING) {
                    LOG.infof("organization %d: administration refused to person %d (%s)", id, person, withheld);
                    // The same answer as the organization's data gives (vocab- and events-service).
                    NamespaceAccess.requireWrite(org.name(), false, withheld);
                }
            }).replaceWithVoid();
        }));
    }

    /** Changing the requirement with a sign-in that falls short: set one up (403), or sign in with it (401). */
    static ProblemException requirementChangeRefused(OrganizationRow org, Withheld withheld) {
        String what = "Only a sign-in with a second factor may change whether the organization '" + org.name()
                + "' requires one of its members";
        if (withheld == Withheld.UNTIL_SIGN_IN_WITH_SECOND_FACTOR) {
            return new StepUpRequired(what + ", and this token comes from a sign-in without one. Sign in again with it "
                    + "(an authorization request with acr_values=" + PlatformClaims.MULTI_FACTOR + "), then try again "
                    + "with the new token.", PlatformClaims.MULTI_FACTOR);
        }
        return new ProblemException(403, "Second Factor Required", what + ". Set one up on your account's security page "
                + "(/account/security), sign in with it, then try again.");
    }

    static ProblemException notFound() {
        return ProblemException.notFound("No such organization.");
    }
}
