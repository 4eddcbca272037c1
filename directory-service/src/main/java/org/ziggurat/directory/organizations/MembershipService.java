package org.ziggurat.directory.organizations;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.directory.people.PeopleRepository;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.input.EdgeInput;
import org.ziggurat.platform.token.Caller;
import org.ziggurat.platform.token.ScopeNames;


/**
 * The rules of memberships: an admin invites a person or changes a role, the person accepts,
 * leaves or is removed, and an organization always keeps an active admin. An admin's changes are
 * held to the organization's requirement of a second factor ({@link OrganizationService#requireAdmin}). Who may see an
 * organization, and who administers it, is {@link OrganizationService}'s.
 */
@ApplicationScoped
public class MembershipService {

    private static final Logger LOG = Logger.getLogger(MembershipService.class);

    private final OrganizationRepository organizations;
    private final OrganizationService organizationRules;
    private final PeopleRepository people;

    MembershipService(OrganizationRepository organizations, OrganizationService organizationRules, PeopleRepository people) {
        this.organizations = organizations;
        this.organizationRules = organizationRules;
        this.people = people;
    }

    /** The membership, to the organization's members and to that person; 404 to anyone else. */
    public Uni<MembershipRow> membership(Caller caller, long id, long personId) {
        long viewer = caller.requireUser();
        return organizations.byId(id).onItem().ifNull().failWith(OrganizationService::notFound)
                .chain(org -> organizations.membership(id, viewer))
                .chain(own -> {
                    if (!MembershipRules.seesMembership(viewer, own, personId)) {
                        return Uni.createFrom().failure(OrganizationService.notFound());
                    }
                    return organizations.membership(id, personId);
                })
                .onItem().ifNull().failWith(() -> ProblemException.notFound("This person is not a member."));
    }

    /** PUT membership {role}: invites a person (pending) or changes a member's role. True when created. */
    public Uni<MembershipChange> putMembership(Caller caller, long id, long personId, EdgeInput<String> roleInput) {
        long admin = caller.requireUserWithScope(ScopeNames.ADMIN);
        String role = roleInput.get();
        return organizationRules.requireAdmin(id, admin, caller.signedInWithSecondFactor())
                .chain(() -> people.byId(personId))
                .onItem().ifNull().failWith(() -> ProblemException.notFound("No person has id " + personId + "."))
                .chain(person -> organizations.changeMemberships(id, admin, conn ->
                        OrganizationRepository.membership(conn, id, personId).chain(existing -> {
                            if (existing == null) {
                                return conn.preparedQuery("INSERT INTO membership (organization_id, person_id, role, state) "
                                        + "VALUES ($1, $2, $3, 'pending')").execute(Tuple.of(id, personId, role))
                                        .replaceWith(true);
                            }
                            Uni<Void> guard = MembershipRules.needsAnotherAdmin(existing, role)
                                    ? keepsAnAdmin(conn, id) : Uni.createFrom().voidItem();
                            return guard.chain(() -> conn.preparedQuery("UPDATE membership SET role = $3, updated_at = now() "
                                    + "WHERE organization_id = $1 AND person_id = $2").execute(Tuple.of(id, personId, role)))
                                    .replaceWith(false);
                        }).chain(created -> OrganizationRepository.membership(conn, id, personId)
                                .map(m -> new MembershipChange(m, created)))))
                .invoke(change -> LOG.infof("membership %s: organization %d person %d role %s by person %d",
                        change.created() ? "invited" : "changed", id, personId, role, admin));
    }

    public record MembershipChange(MembershipRow membership, boolean created) {
    }

    /** PATCH /user/memberships/organizations/:id {"state":"active"}: the invited person accepts. */
    public Uni<MembershipRow> accept(Caller caller, long id, EdgeInput<String> acceptance) {
        long person = caller.requireUserWithScope(ScopeNames.ADMIN);
        acceptance.get();
        return organizations.changeMemberships(id, person, conn -> OrganizationRepository.membership(conn, id, person)
                .onItem().ifNull().failWith(() -> ProblemException.notFound("There is no invitation to this organization."))
                .chain(m -> conn.preparedQuery("UPDATE membership SET state = 'active', updated_at = now() "
                        + "WHERE organization_id = $1 AND person_id = $2 AND state = 'pending'").execute(Tuple.of(id, person)))
                .chain(() -> OrganizationRepository.membership(conn, id, person)));
    }

    /** An admin removes someone, or a person leaves (or declines); the last active admin cannot go. */
    public Uni<Void> removeMembership(Caller caller, long id, long personId) {
        long actor = caller.requireUserWithScope(ScopeNames.ADMIN);
        // Leaving is one's own business; removing someone else is the organization's administration.
        Uni<Void> allowed = (actor == personId ? organizationRules.visible(id, actor)
                : organizationRules.requireAdmin(id, actor, caller.signedInWithSecondFactor())).replaceWithVoid();
        return allowed.chain(() -> organizations.changeMemberships(id, actor, conn ->
                OrganizationRepository.membership(conn, id, personId)
                        .onItem().ifNull().failWith(() -> ProblemException.notFound("This person is not a member."))
                        .chain(m -> MembershipRules.needsAnotherAdmin(m, null) ? keepsAnAdmin(conn, id)
                                : Uni.createFrom().voidItem())
                        .chain(() -> conn.preparedQuery("DELETE FROM membership WHERE organization_id = $1 AND person_id = $2")
                                .execute(Tuple.of(id, personId)))
                        .replaceWithVoid()))
                .invoke(() -> LOG.infof("membership removed: organization %d person %d by person %d", id, personId, actor));
    }

    private static Uni<Void> keepsAnAdmin(SqlConnection conn, long id) {
        return OrganizationRepository.activeAdmins(conn, id).chain(count -> MembershipRules.anAdminMayGo(count)
                ? Uni.createFrom().voidItem()
                : Uni.createFrom().failure(ProblemException.conflict(
                        "An organization keeps at least one admin: make someone else admin first.")));
    }
}
