package org.ziggurat.directory.organizations;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.directory.people.PersonRow;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.input.EdgeInput;
import org.ziggurat.platform.token.Caller;

import java.util.List;
import org.ziggurat.platform.token.ScopeNames;

/**
 * The rules of organizations ({@link MembershipService}: of their memberships). What a viewer
 * may not see is 404, never 403, so that a private organization's existence does not leak;
 * writes need the {@code admin} scope.
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

    public Uni<OrganizationRow> update(Caller caller, long id, EdgeInput<OrganizationFields> input) {
        long person = caller.requireUserWithScope(ScopeNames.ADMIN);
        OrganizationFields f = input.get();
        Uni<Void> allowed = requireAdmin(id, person);
        if (Boolean.TRUE.equals(f.twoFactorRequired())) {
            // As GitHub asks: whoever requires it of the members has one, or would lock themselves out.
            allowed = allowed.chain(() -> organizations.hasSecondFactor(person)).invoke(has -> {
                if (!has) {
                    throw ProblemException.conflict("Set up a second factor for your own account before you require "
                            + "one of the organization's members.");
                }
            }).replaceWithVoid();
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
        return requireAdmin(id, person).chain(() -> organizations.delete(id))
                .invoke(() -> LOG.infof("organization deleted: id=%d by person %d", id, person));
    }

    /** 404 when the organization is invisible to the person, 403 when visible but they are not an active admin. */
    Uni<Void> requireAdmin(long id, long person) {
        return visible(id, person).chain(org -> organizations.membership(id, person)).chain(m -> MembershipRules.administers(m)
                ? Uni.createFrom().voidItem()
                : Uni.createFrom().failure(ProblemException.forbidden("Only an admin of this organization may do this.")));
    }

    static ProblemException notFound() {
        return ProblemException.notFound("No such organization.");
    }
}
