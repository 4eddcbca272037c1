package org.ziggurat.directory.organizations;

import io.vertx.mutiny.sqlclient.SqlConnection;
import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.directory.people.Names;
import org.ziggurat.directory.people.PeopleRepository;
import org.ziggurat.directory.people.PersonRow;
import org.ziggurat.directory.people.ProfileRules;
import org.ziggurat.platform.input.FieldChecks;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Caller;

import java.util.List;
import java.util.Set;
import org.ziggurat.platform.token.ScopeNames;

/**
 * The rules of organizations and memberships. What a viewer may not see is 404, never 403, so
 * that a private organization's existence does not leak; writes need the {@code admin} scope.
 */
@ApplicationScoped
public class OrganizationService {

    /** The scope that manages one's organizations and memberships. */
    private static final List<String> VISIBILITIES = List.of("public", "private");
    private static final Set<String> ROLES = Set.of(MembershipRow.MEMBER, MembershipRow.ADMIN);
    private static final Logger LOG = Logger.getLogger(OrganizationService.class);

    private final OrganizationRepository organizations;
    private final PeopleRepository people;

    OrganizationService(OrganizationRepository organizations, PeopleRepository people) {
        this.organizations = organizations;
        this.people = people;
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

    public Uni<OrganizationRow> create(Caller caller, JsonNode body) {
        long creator = caller.requireUserWithScope(ScopeNames.ADMIN);
        if (body == null || !body.isObject()) {
            return Uni.createFrom().failure(ProblemException.badRequest("A JSON object is required."));
        }
        FieldChecks errors = new FieldChecks();
        String name = text(body, "name", errors);
        // Left out or null alike: "is required" (a null name once reached the database: a 500).
        // A name that is no string has its error already.
        JsonNode given = body.get("name");
        if (given == null || given.isNull() || given.isTextual()) {
            String problem = Names.problem(name);
            if (problem != null) {
                errors.add("name", problem);
            }
        }
        String displayName = text(body, "display_name", errors);
        ProfileRules.displayName(displayName, errors);
        String visibility = errors.oneOf(body.get("visibility"), "visibility", VISIBILITIES, null);
        if (errors.failed()) {
            return Uni.createFrom().failure(ProblemException.invalid("The organization is not valid.", errors.errors()));
        }
        return organizations.create(name, displayName == null ? name : displayName.strip(),
                        visibility == null ? "public" : visibility, creator)
                .invoke(org -> LOG.infof("organization created: id=%d name=%s by person %d", org.id(), org.name(), creator));
    }

    public Uni<OrganizationRow> update(Caller caller, long id, JsonNode body) {
        long person = caller.requireUserWithScope(ScopeNames.ADMIN);
        if (body == null || !body.isObject()) {
            return Uni.createFrom().failure(ProblemException.badRequest("A JSON object is required."));
        }
        FieldChecks errors = new FieldChecks();
        String displayName = text(body, "display_name", errors);
        ProfileRules.displayName(displayName, errors);
        String visibility = errors.oneOf(body.get("visibility"), "visibility", VISIBILITIES, null);
        if (body.has("name")) {
            errors.add("name", "cannot be changed: it is the organization's namespace");
        }
        if (errors.failed()) {
            return Uni.createFrom().failure(ProblemException.invalid("The change is not valid.", errors.errors()));
        }
        String cleanName = displayName == null ? null : displayName.strip();
        return requireAdmin(id, person).chain(() -> organizations.update(id, cleanName, visibility));
    }

    public Uni<Void> delete(Caller caller, long id) {
        long person = caller.requireUserWithScope(ScopeNames.ADMIN);
        return requireAdmin(id, person).chain(() -> organizations.delete(id))
                .invoke(() -> LOG.infof("organization deleted: id=%d by person %d", id, person));
    }

    /** The membership, to the organization's members and to that person; 404 to anyone else. */
    public Uni<MembershipRow> membership(Caller caller, long id, long personId) {
        long viewer = caller.requireUser();
        return organizations.byId(id).onItem().ifNull().failWith(OrganizationService::notFound)
                .chain(org -> organizations.membership(id, viewer))
                .chain(own -> {
                    if (!MembershipRules.seesMembership(viewer, own, personId)) {
                        return Uni.createFrom().failure(notFound());
                    }
                    return organizations.membership(id, personId);
                })
                .onItem().ifNull().failWith(() -> ProblemException.notFound("This person is not a member."));
    }

    /** PUT membership {role}: invites a person (pending) or changes a member's role. True when created. */
    public Uni<MembershipChange> putMembership(Caller caller, long id, long personId, JsonNode body) {
        long admin = caller.requireUserWithScope(ScopeNames.ADMIN);
        if (body == null || !body.isObject()) {
            return Uni.createFrom().failure(ProblemException.badRequest("A JSON object is required."));
        }
        String role = body.has("role") && body.get("role").isTextual() ? body.get("role").asText() : null;
        if (role == null || !ROLES.contains(role)) {
            return Uni.createFrom().failure(ProblemException.invalidField("role", "must be member or admin"));
        }
        return requireAdmin(id, admin)
                .chain(() -> people.byId(personId))
                .onItem().ifNull().failWith(() -> ProblemException.notFound("No person has id " + personId + "."))
                .chain(person -> organizations.changeMemberships(id, conn ->
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
    public Uni<MembershipRow> accept(Caller caller, long id, JsonNode body) {
        long person = caller.requireUserWithScope(ScopeNames.ADMIN);
        if (body == null || !body.isObject()) {
            return Uni.createFrom().failure(ProblemException.badRequest("A JSON object is required."));
        }
        JsonNode state = body.get("state");
        if (state == null || !state.isTextual() || !MembershipRow.ACTIVE.equals(state.asText())) {
            return Uni.createFrom().failure(ProblemException.invalidField("state", "must be active"));
        }
        return organizations.changeMemberships(id, conn -> OrganizationRepository.membership(conn, id, person)
                .onItem().ifNull().failWith(() -> ProblemException.notFound("There is no invitation to this organization."))
                .chain(m -> conn.preparedQuery("UPDATE membership SET state = 'active', updated_at = now() "
                        + "WHERE organization_id = $1 AND person_id = $2 AND state = 'pending'").execute(Tuple.of(id, person)))
                .chain(() -> OrganizationRepository.membership(conn, id, person)));
    }

    /** An admin removes someone, or a person leaves (or declines); the last active admin cannot go. */
    public Uni<Void> removeMembership(Caller caller, long id, long personId) {
        long actor = caller.requireUserWithScope(ScopeNames.ADMIN);
        Uni<Void> allowed = actor == personId ? visible(id, actor).replaceWithVoid() : requireAdmin(id, actor);
        return allowed.chain(() -> organizations.changeMemberships(id, conn ->
                OrganizationRepository.membership(conn, id, personId)
                        .onItem().ifNull().failWith(() -> ProblemException.notFound("This person is not a member."))
                        .chain(m -> MembershipRules.needsAnotherAdmin(m, null) ? keepsAnAdmin(conn, id)
                                : Uni.createFrom().voidItem())
                        .chain(() -> conn.preparedQuery("DELETE FROM membership WHERE organization_id = $1 AND person_id = $2")
                                .execute(Tuple.of(id, personId)))
                        .replaceWithVoid()))
                .invoke(() -> LOG.infof("membership removed: organization %d person %d by person %d", id, personId, actor));
    }

    /** 404 when the organization is invisible to the person, 403 when visible but they are not an active admin. */
    Uni<Void> requireAdmin(long id, long person) {
        return visible(id, person).chain(org -> organizations.membership(id, person)).chain(m -> MembershipRules.administers(m)
                ? Uni.createFrom().voidItem()
                : Uni.createFrom().failure(ProblemException.forbidden("Only an admin of this organization may do this.")));
    }

    private static Uni<Void> keepsAnAdmin(SqlConnection conn, long id) {
        return OrganizationRepository.activeAdmins(conn, id).chain(count -> MembershipRules.anAdminMayGo(count)
                ? Uni.createFrom().voidItem()
                : Uni.createFrom().failure(ProblemException.conflict(
                        "An organization keeps at least one admin: make someone else admin first.")));
    }

    static ProblemException notFound() {
        return ProblemException.notFound("No such organization.");
    }

    private static String text(JsonNode body, String field, FieldChecks errors) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            errors.add(field, "must be a string");
            return null;
        }
        return node.asText();
    }
}
