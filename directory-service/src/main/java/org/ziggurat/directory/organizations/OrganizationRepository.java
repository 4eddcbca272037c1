package org.ziggurat.directory.organizations;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.directory.people.PersonRow;
import org.ziggurat.platform.data.RowMissing;
import org.ziggurat.platform.data.ValueTaken;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Organizations and memberships in Postgres. {@code viewer} is a person id, or 0 for an
 * anonymous caller (no person has id 0), and limits reads to what that viewer may see.
 */
@ApplicationScoped
public class OrganizationRepository {

    static final long ANONYMOUS = 0;

    private final Pool pool;

    OrganizationRepository(Pool pool) {
        this.pool = pool;
    }

    public Uni<OrganizationRow> byId(long id) {
        return pool.preparedQuery(OrganizationRow.SELECT + "WHERE o.id = $1").execute(Tuple.of(id))
                .map(rows -> first(rows, OrganizationRow::from));
    }

    public Uni<List<OrganizationRow>> byIds(Long[] ids) {
        return pool.preparedQuery(OrganizationRow.SELECT + "WHERE o.id = ANY($1) ORDER BY o.id").execute(Tuple.of((Object) ids))
                .map(rows -> all(rows, OrganizationRow::from));
    }

    /** Newest first, and the total, of what the viewer may see. */
    public Uni<List<OrganizationRow>> newest(long viewer, long offset, int limit) {
        return pool.preparedQuery(OrganizationRow.SELECT + "WHERE " + OrganizationRow.visibleTo("$1")
                + " ORDER BY o.created_at DESC, o.id DESC LIMIT $2 OFFSET $3")
                .execute(Tuple.of(viewer, limit, offset)).map(rows -> all(rows, OrganizationRow::from));
    }

    public Uni<Long> countVisible(long viewer) {
        return pool.preparedQuery("SELECT count(*) FROM organization o WHERE " + OrganizationRow.visibleTo("$1"))
                .execute(Tuple.of(viewer)).map(rows -> rows.iterator().next().getLong(0));
    }

    /** The organizations in which the person is an active member, that the viewer may see. */
    public Uni<List<OrganizationRow>> ofPerson(long personId, long viewer) {
        return pool.preparedQuery(OrganizationRow.SELECT
                + "JOIN membership mine ON mine.organization_id = o.id AND mine.person_id = $1 AND mine.state = 'active' "
                + "WHERE " + OrganizationRow.visibleTo("$2") + " ORDER BY o.name")
                .execute(Tuple.of(personId, viewer)).map(rows -> all(rows, OrganizationRow::from));
    }

    /** Claims the name, creates the organization and makes the creator its active admin, in one transaction. */
    public Uni<OrganizationRow> create(String name, String displayName, String visibility, long creatorId) {
        return pool.withTransaction(conn -> conn
                .preparedQuery("INSERT INTO namespace (name_key, kind) VALUES ($1, 'organization')")
                .execute(Tuple.of(name))
                .chain(() -> conn.preparedQuery("INSERT INTO organization (name, display_name, visibility) "
                        + "VALUES ($1, $2, $3) RETURNING id").execute(Tuple.of(name, displayName, visibility)))
                .map(rows -> rows.iterator().next().getLong("id"))
                .call(id -> conn.preparedQuery("INSERT INTO membership (organization_id, person_id, role, state) "
                        + "SELECT $1, $2, 'admin', 'active' FROM (SELECT set_config('ziggurat.actor_id', $3, true)) actor")
                        .execute(Tuple.of(id, creatorId, Long.toString(creatorId))))
                .chain(id -> conn.preparedQuery(OrganizationRow.SELECT + "WHERE o.id = $1").execute(Tuple.of(id))))
                .map(rows -> first(rows, OrganizationRow::from))
                .onFailure(PgException.class).transform(OrganizationRepository::conflict);
    }

    public Uni<OrganizationRow> update(long id, String displayName, String visibility, Boolean twoFactorRequired) {
        return pool.preparedQuery("UPDATE organization SET display_name = coalesce($2, display_name), "
                + "visibility = coalesce($3, visibility), two_factor_required = coalesce($4, two_factor_required), "
                + "updated_at = now() WHERE id = $1")
                .execute(Tuple.of(id, displayName, visibility, twoFactorRequired))
                .chain(() -> byId(id));
    }

    /** Whether the person has a second factor. */
    public Uni<Boolean> hasSecondFactor(long personId) {
        return pool.preparedQuery("SELECT " + PersonRow.hasSecondFactor("$1") + " AS second_factor")
                .execute(Tuple.of(personId)).map(rows -> rows.iterator().next().getBoolean("second_factor"));
    }

    /**
     * Removes the organization, its memberships and links, and retires its name: it resolves to
     * no namespace from now on and can never be taken again, so the vocabularies and data events
     * the other services keep under it never pass to a new owner (V5__retired_names.sql). The
     * {@code actor} (its admin) removed its memberships, for the audit stream's trigger (V15, V17).
     */
    public Uni<Void> delete(long id, long actor) {
        return pool.withTransaction(conn -> conn
                .preparedQuery("DELETE FROM organization o USING (SELECT set_config('ziggurat.actor_id', $2, true)) actor "
                        + "WHERE o.id = $1 RETURNING o.name").execute(Tuple.of(id, Long.toString(actor)))
                .chain(rows -> rows.rowCount() == 0 ? Uni.createFrom().voidItem()
                        : conn.preparedQuery("UPDATE namespace SET kind = 'retired', retired_at = now() WHERE name_key = $1")
                                .execute(Tuple.of(rows.iterator().next().getString("name"))).replaceWithVoid()));
    }

    public Uni<MembershipRow> membership(long organizationId, long personId) {
        return pool.preparedQuery(MembershipRow.SELECT + "WHERE m.organization_id = $1 AND m.person_id = $2")
                .execute(Tuple.of(organizationId, personId)).map(rows -> first(rows, MembershipRow::from));
    }

    /** Active members, as people, in the order they joined. */
    public Uni<List<PersonRow>> activeMembers(long organizationId) {
        return pool.preparedQuery("SELECT " + PersonRow.columns("p")
                + " FROM membership m JOIN person p ON p.id = m.person_id "
                + "WHERE m.organization_id = $1 AND m.state = 'active' ORDER BY m.created_at, p.id")
                .execute(Tuple.of(organizationId)).map(rows -> all(rows, PersonRow::from));
    }

    /**
     * Changes memberships of one organization under a lock on its row, so that concurrent changes
     * are serialised and the rule "an organization keeps at least one active admin" holds.
     */
    public <T> Uni<T> changeMemberships(long organizationId, long actor, Function<SqlConnection, Uni<T>> work) {
        // The lock's statement also names the actor for the audit stream's trigger (V15), for this transaction only.
        return pool.withTransaction(conn -> conn
                .preparedQuery("SELECT id, set_config('ziggurat.actor_id', $2::text, true) FROM organization WHERE id = $1 FOR UPDATE")
                .execute(Tuple.of(organizationId, Long.toString(actor)))
                .chain(rows -> rows.rowCount() == 0
                        ? Uni.createFrom().failure(new RowMissing("No such organization."))
                        : work.apply(conn)));
    }

    static Uni<Long> activeAdmins(SqlConnection conn, long organizationId) {
        return conn.preparedQuery("SELECT count(*) FROM membership WHERE organization_id = $1 "
                + "AND role = 'admin' AND state = 'active'").execute(Tuple.of(organizationId))
                .map(rows -> rows.iterator().next().getLong(0));
    }

    static Uni<MembershipRow> membership(SqlConnection conn, long organizationId, long personId) {
        return conn.preparedQuery(MembershipRow.SELECT + "WHERE m.organization_id = $1 AND m.person_id = $2")
                .execute(Tuple.of(organizationId, personId)).map(rows -> first(rows, MembershipRow::from));
    }

    static <T> T first(RowSet<Row> rows, Function<Row, T> mapper) {
        return rows.rowCount() == 0 ? null : mapper.apply(rows.iterator().next());
    }

    static <T> List<T> all(RowSet<Row> rows, Function<Row, T> mapper) {
        List<T> list = new ArrayList<>(rows.rowCount());
        rows.forEach(row -> list.add(mapper.apply(row)));
        return list;
    }

    private static Throwable conflict(Throwable failure) {
        PgException pg = (PgException) failure;
        return "23505".equals(pg.getSqlState()) ? new ValueTaken("This name is taken.") : failure;
    }
}
