package org.ziggurat.directory.accountdata;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.directory.mail.SecurityNotices;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Deletes an account in one transaction (see V12): the rule for organizations, the person and
 * what cascades from them, their retired name, one erasure per peer, and a last mail to the address.
 */
@ApplicationScoped
public class AccountDeletionRepository {

    private final Pool pool;

    AccountDeletionRepository(Pool pool) {
        this.pool = pool;
    }

    /** {@code confirm} is not the username: nothing was deleted. */
    public static final class NotConfirmed extends RuntimeException {
        NotConfirmed() {
            super("not confirmed", null, false, false);
        }
    }

    /** The person alone administers these organizations, which others are members of: nothing was deleted. */
    public static final class SoleAdmin extends RuntimeException {
        private final List<String> organizations;

        SoleAdmin(List<String> organizations) {
            super("sole admin", null, false, false);
            this.organizations = organizations;
        }

        public List<String> organizations() {
            return organizations;
        }
    }

    /** What went: the person's name, and the organizations deleted with them (they were their only member). */
    @io.quarkus.runtime.annotations.RegisterForReflection
    public record Deleted(String username, List<String> organizationsDeleted) {
    }

    /**
     * Null when no such person. {@link NotConfirmed} unless {@code confirm} is the username;
     * {@link SoleAdmin} naming the organizations the person alone administers while others are
     * members (they must hand them over or delete them first). {@code goodbye} makes the last mail from the username and address.
     */
    public Uni<Deleted> delete(long personId, String confirm, BiFunction<String, String, SecurityNotices.Notice> goodbye) {
        // The person removes their memberships (and their own organizations'), for the audit stream's trigger (V15, V17).
        return pool.withTransaction(conn -> conn.preparedQuery("SELECT username, email, set_config('ziggurat.actor_id', $2, true) "
                        + "FROM person WHERE id = $1 FOR UPDATE")
                .execute(Tuple.of(personId, Long.toString(personId)))
                .chain(rows -> {
                    if (rows.rowCount() == 0) {
                        return Uni.createFrom().<Deleted>nullItem();
                    }
                    Row person = rows.iterator().next();
                    String username = person.getString("username");
                    if (confirm == null || !username.equalsIgnoreCase(confirm.strip())) {
                        return Uni.createFrom().failure(new NotConfirmed());
                    }
                    return lockOrganizations(conn, personId)
                            .chain(() -> blocking(conn, personId))
                            .chain(blocking -> blocking.isEmpty() ? Uni.createFrom().voidItem()
                                    : Uni.createFrom().failure(new SoleAdmin(blocking)))
                            .chain(() -> deleteOwnOrganizations(conn, personId))
                            .call(() -> forget(conn, personId, username))
                            .call(() -> {
                                SecurityNotices.Notice notice = goodbye.apply(username, person.getString("email"));
                                return conn.preparedQuery("INSERT INTO mail_outbox (person_id, kind, recipient, subject, body) "
                                                + "VALUES (NULL, 'account_deleted', $1, $2, $3)")
                                        .execute(Tuple.of(person.getString("email"), notice.subject(), notice.body()));
                            })
                            .map(organizations -> new Deleted(username, organizations));
                }));
    }

    /** The person's organizations, locked as every change of memberships locks them (OrganizationRepository). */
    private static Uni<Void> lockOrganizations(SqlConnection conn, long personId) {
        return conn.preparedQuery("SELECT o.id FROM organization o JOIN membership m ON m.organization_id = o.id "
                + "WHERE m.person_id = $1 ORDER BY o.id FOR UPDATE OF o").execute(Tuple.of(personId)).replaceWithVoid();
    }

    private static Uni<List<String>> blocking(SqlConnection conn, long personId) {
        return conn.preparedQuery("SELECT o.name FROM membership m JOIN organization o ON o.id = m.organization_id "
                        + "WHERE m.person_id = $1 AND m.state = 'active' AND m.role = 'admin' "
                        + "AND NOT EXISTS (SELECT 1 FROM membership a WHERE a.organization_id = m.organization_id "
                        + "AND a.person_id <> $1 AND a.state = 'active' AND a.role = 'admin') "
                        + "AND EXISTS (SELECT 1 FROM membership x WHERE x.organization_id = m.organization_id "
                        + "AND x.person_id <> $1 AND x.state = 'active') ORDER BY o.name")
                .execute(Tuple.of(personId)).map(AccountDeletionRepository::names);
    }

    /** Organizations nobody else is an active member of go too, their names retired as any deleted organization's. */
    private static Uni<List<String>> deleteOwnOrganizations(SqlConnection conn, long personId) {
        return conn.preparedQuery("DELETE FROM organization o USING membership m WHERE m.organization_id = o.id "
                        + "AND m.person_id = $1 AND m.state = 'active' AND NOT EXISTS (SELECT 1 FROM membership x "
                        + "WHERE x.organization_id = o.id AND x.person_id <> $1 AND x.state = 'active') RETURNING o.name")
                .execute(Tuple.of(personId)).map(AccountDeletionRepository::names)
                .call(names -> names.isEmpty() ? Uni.createFrom().voidItem()
                        : conn.preparedQuery("UPDATE namespace SET kind = 'retired', retired_at = now() WHERE name_key = ANY ($1)")
                                .execute(Tuple.of(names.toArray(String[]::new))));
    }

    private static Uni<Void> forget(SqlConnection conn, long personId, String username) {
        return conn.preparedQuery("DELETE FROM person WHERE id = $1").execute(Tuple.of(personId))
                .chain(() -> conn.preparedQuery("UPDATE namespace SET kind = 'retired', retired_at = now() WHERE name_key = $1")
                        .execute(Tuple.of(username)))
                .chain(() -> conn.preparedQuery("INSERT INTO peer_delivery (person_id, username, peer, kind) "
                                + "SELECT $1, $2, unnest($3::text[]), 'erasure' ON CONFLICT (person_id, peer) WHERE kind = 'erasure' "
                                + "DO NOTHING")
                        .execute(Tuple.of(personId, username, Peers.NAMES.toArray(String[]::new))))
                .replaceWithVoid();
    }

    private static List<String> names(io.vertx.mutiny.sqlclient.RowSet<Row> rows) {
        List<String> names = new ArrayList<>(rows.rowCount());
        rows.forEach(row -> names.add(row.getString(0)));
        return names;
    }
}
