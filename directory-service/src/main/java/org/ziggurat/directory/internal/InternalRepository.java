package org.ziggurat.directory.internal;

import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.directory.people.PersonRow;

import java.util.ArrayList;
import java.util.List;

/** The queries behind the internal API: each one statement on indexed columns. */
@ApplicationScoped
public class InternalRepository {

    private final Pool pool;

    InternalRepository(Pool pool) {
        this.pool = pool;
    }

    /** {@code secondFactor}: the person has one, which a password alone does not pass. */
    public record Credential(long id, String username, String passwordHash, boolean secondFactor) {
    }

    /** A namespace's owner, and the person's membership there if it is an organization's. */
    public record NamespaceRow(String name, String kind, Long personId, Long organizationId, String visibility,
            String role, String state, boolean twoFactorRequired, boolean secondFactor) {
    }

    @RegisterForReflection // answered as JSON by GET /internal/people/{id}/organizations
    public record OrganizationOfPerson(long id, String name, String role) {
    }

    public record Link(long organizationId, JsonObject permissions) {
    }

    /** By username, or by sign-in address when the login contains '@'. */
    public Uni<Credential> credential(String login) {
        String columns = "SELECT id, username, password_hash, " + PersonRow.hasSecondFactor("person.id")
                + " AS second_factor FROM person ";
        String sql = columns + (login.contains("@") ? "WHERE lower(email) = lower($1)" : "WHERE username = lower($1)");
        return pool.preparedQuery(sql).execute(Tuple.of(login)).map(rows -> {
            if (rows.rowCount() == 0) {
                return null;
            }
            Row row = rows.iterator().next();
            return new Credential(row.getLong("id"), row.getString("username"), row.getString("password_hash"),
                    row.getBoolean("second_factor"));
        });
    }

    public Uni<List<PersonRow>> people(Long[] ids) {
        return pool.preparedQuery("SELECT " + PersonRow.columns("p") + " FROM person p WHERE p.id = ANY($1) ORDER BY p.id")
                .execute(Tuple.of(ids)).map(rows -> {
                    List<PersonRow> list = new ArrayList<>();
                    rows.forEach(r -> list.add(PersonRow.from(r)));
                    return list;
                });
    }

    public Uni<List<OrganizationOfPerson>> activeOrganizations(long personId) {
        return pool.preparedQuery("SELECT o.id, o.name, m.role FROM membership m JOIN organization o ON o.id = m.organization_id "
                + "WHERE m.person_id = $1 AND m.state = 'active' ORDER BY o.id")
                .execute(Tuple.of(personId)).map(rows -> {
                    List<OrganizationOfPerson> list = new ArrayList<>();
                    rows.forEach(r -> list.add(new OrganizationOfPerson(r.getLong("id"), r.getString("name"), r.getString("role"))));
                    return list;
                });
    }

    /**
     * The person's active memberships with what their entitlements depend on: whether the
     * organization requires a second factor, and whether the person has one.
     */
    public record EntitledMembership(String name, String role, boolean twoFactorRequired, boolean secondFactor) {
    }

    public Uni<List<EntitledMembership>> entitledMemberships(long personId) {
        return pool.preparedQuery("SELECT o.name, m.role, o.two_factor_required, " + PersonRow.hasSecondFactor("$1")
                        + " AS second_factor FROM membership m JOIN organization o ON o.id = m.organization_id "
                        + "WHERE m.person_id = $1 AND m.state = 'active' ORDER BY o.id")
                .execute(Tuple.of(personId)).map(rows -> {
                    List<EntitledMembership> list = new ArrayList<>();
                    rows.forEach(r -> list.add(new EntitledMembership(r.getString("name"), r.getString("role"),
                            r.getBoolean("two_factor_required"), r.getBoolean("second_factor"))));
                    return list;
                });
    }

    /** One round trip: the name's kind, owner and visibility, and the person's membership if any. */
    public Uni<NamespaceRow> namespace(String name, long personId) {
        return pool.preparedQuery("""
                SELECT n.name_key, n.kind, p.id AS person_id, o.id AS organization_id, o.visibility, m.role, m.state,
                       coalesce(o.two_factor_required, false) AS two_factor_required,
                       """ + PersonRow.hasSecondFactor("$2") + """
                 AS second_factor
                FROM namespace n
                LEFT JOIN person p ON n.kind = 'person' AND p.username = n.name_key
                LEFT JOIN organization o ON n.kind = 'organization' AND o.name = n.name_key
                LEFT JOIN membership m ON m.organization_id = o.id AND m.person_id = $2
                WHERE n.name_key = lower($1) AND n.kind <> 'retired'""")
                .execute(Tuple.of(name, personId))
                .map(rows -> {
                    if (rows.rowCount() == 0) {
                        return null;
                    }
                    Row r = rows.iterator().next();
                    return new NamespaceRow(r.getString("name_key"), r.getString("kind"), r.getLong("person_id"),
                            r.getLong("organization_id"), r.getString("visibility"), r.getString("role"), r.getString("state"),
                            r.getBoolean("two_factor_required"), r.getBoolean("second_factor"));
                });
    }

    /**
     * A mail queued to each admin of the namespace: the person of a person's namespace, the active
     * admins of an organization. How many; null when no namespace has the name.
     */
    public Uni<Long> noticeAdmins(String name, String kind, String subject, String body) {
        return pool.preparedQuery("""
                WITH ns AS (SELECT name_key, kind FROM namespace WHERE name_key = lower($1) AND kind <> 'retired'),
                admins AS (
                    SELECT p.id, p.email FROM ns JOIN person p ON ns.kind = 'person' AND p.username = ns.name_key
                    UNION
                    SELECT p.id, p.email FROM ns JOIN organization o ON ns.kind = 'organization' AND o.name = ns.name_key
                    JOIN membership m ON m.organization_id = o.id AND m.role = 'admin' AND m.state = 'active'
                    JOIN person p ON p.id = m.person_id),
                queued AS (INSERT INTO mail_outbox (person_id, kind, recipient, subject, body)
                    SELECT id, $2, email, $3, $4 FROM admins WHERE email IS NOT NULL RETURNING 1)
                SELECT (SELECT count(*) FROM ns) AS found, (SELECT count(*) FROM queued) AS queued""")
                .execute(Tuple.of(name, kind, subject, body))
                .map(rows -> {
                    Row row = rows.iterator().next();
                    return row.getLong("found") == 0 ? null : row.getLong("queued");
                });
    }

    public Uni<Boolean> putLink(long organizationId, String clientId, JsonObject permissions) {
        return pool.preparedQuery("""
                INSERT INTO organization_application (organization_id, client_id, permissions) VALUES ($1, $2, $3)
                ON CONFLICT (organization_id, client_id) DO UPDATE SET permissions = $3, updated_at = now()
                RETURNING (xmax = 0) AS created""")
                .execute(Tuple.of(organizationId, clientId, permissions))
                .map(rows -> rows.iterator().next().getBoolean("created"));
    }

    public Uni<Boolean> deleteLink(long organizationId, String clientId) {
        return pool.preparedQuery("DELETE FROM organization_application WHERE organization_id = $1 AND client_id = $2")
                .execute(Tuple.of(organizationId, clientId)).map(rows -> rows.rowCount() > 0);
    }

    public Uni<List<Link>> linksOf(String clientId) {
        return pool.preparedQuery("SELECT organization_id, permissions FROM organization_application "
                + "WHERE client_id = $1 ORDER BY organization_id")
                .execute(Tuple.of(clientId)).map(rows -> {
                    List<Link> list = new ArrayList<>();
                    rows.forEach(r -> list.add(new Link(r.getLong("organization_id"), r.getJsonObject("permissions"))));
                    return list;
                });
    }
}
