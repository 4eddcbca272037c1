package org.ziggurat.auth.tokens;

import io.vertx.mutiny.sqlclient.RowSet;
import java.util.function.Function;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.AuditActor;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Grants (what a person consented to, per application) and authorizations (their live access tokens). */
@ApplicationScoped
public class GrantRepository {

    private final Pool pool;
    private final TokenRepository tokens;

    GrantRepository(Pool pool, TokenRepository tokens) {
        this.pool = pool;
        this.tokens = tokens;
    }

    /** {@code lastUsedAt}: when the application last got a token of the person (null: none kept). */
    public record GrantRow(long id, long applicationId, String appName, String clientId, List<String> scopes,
            Instant createdAt, Instant updatedAt, Instant lastUsedAt) {
    }

    public record AuthorizationRow(long id, Long applicationId, String appName, String clientId, List<String> scopes,
            Instant createdAt, Instant updatedAt, byte[] sealed) {
    }

    private static final String GRANTS = "SELECT c.id, c.application_id, a.name, a.client_id, c.scopes, c.created_at, "
            + "c.updated_at, (SELECT max(t.created_at) FROM token t WHERE t.person_id = c.person_id "
            + "AND t.application_id = c.application_id AND t.kind = 'a') AS last_used_at "
            + "FROM consent c JOIN application a ON a.id = c.application_id WHERE c.person_id = $1 ";

    private static final String AUTHORIZATIONS = "SELECT t.id, t.application_id, a.name, a.client_id, t.scopes, "
            + "t.created_at, t.updated_at, t.encrypted FROM token t LEFT JOIN application a ON a.id = t.application_id "
            + "WHERE t.person_id = $1 AND t.kind = 'a' AND t.revoked_at IS NULL AND t.expires_at > now() ";

    public Uni<List<GrantRow>> grants(long personId) {
        return pool.preparedQuery(GRANTS + "ORDER BY c.id").execute(Tuple.of(personId))
                .map(rows -> map(rows, GrantRepository::grant));
    }

    public Uni<GrantRow> grant(long personId, long id) {
        return pool.preparedQuery(GRANTS + "AND c.id = $2").execute(Tuple.of(personId, id))
                .map(rows -> rows.rowCount() == 0 ? null : grant(rows.iterator().next()));
    }

    /** Revokes every token the person's grant gave the application, and forgets the consent (the person's own change). */
    public Uni<Integer> revokeGrant(long personId, GrantRow grant) {
        return pool.withTransaction(conn -> AuditActor.name(conn, personId).chain(() -> conn.preparedQuery(
                        "UPDATE token SET revoked_at = now(), updated_at = now() "
                        + "WHERE person_id = $1 AND application_id = $2 AND revoked_at IS NULL RETURNING hash")
                .execute(Tuple.of(personId, grant.applicationId())))
                .call(() -> conn.preparedQuery("DELETE FROM consent WHERE id = $1").execute(Tuple.of(grant.id()))))
                // After the commit: a read in between could otherwise keep a token as live again.
                .map(tokens::forgetRevoked);
    }

    public Uni<List<AuthorizationRow>> authorizations(long personId) {
        return pool.preparedQuery(AUTHORIZATIONS + "ORDER BY t.id").execute(Tuple.of(personId))
                .map(rows -> map(rows, GrantRepository::authorization));
    }

    public Uni<AuthorizationRow> authorization(long personId, long id) {
        return pool.preparedQuery(AUTHORIZATIONS + "AND t.id = $2").execute(Tuple.of(personId, id))
                .map(rows -> rows.rowCount() == 0 ? null : authorization(rows.iterator().next()));
    }

    /** The newest live access token of the person for this client. */
    public Uni<AuthorizationRow> newestForClient(long personId, String clientId) {
        return pool.preparedQuery(AUTHORIZATIONS + "AND a.client_id = $2 ORDER BY t.id DESC LIMIT 1")
                .execute(Tuple.of(personId, clientId))
                .map(rows -> rows.rowCount() == 0 ? null : authorization(rows.iterator().next()));
    }

    private static GrantRow grant(Row r) {
        return new GrantRow(r.getLong("id"), r.getLong("application_id"), r.getString("name"), r.getString("client_id"),
                Arrays.asList(r.getArrayOfStrings("scopes")), r.getOffsetDateTime("created_at").toInstant(),
                r.getOffsetDateTime("updated_at").toInstant(),
                r.getOffsetDateTime("last_used_at") == null ? null : r.getOffsetDateTime("last_used_at").toInstant());
    }

    private static AuthorizationRow authorization(Row r) {
        var sealed = r.getBuffer("encrypted");
        return new AuthorizationRow(r.getLong("id"), r.getLong("application_id"), r.getString("name"),
                r.getString("client_id"), Arrays.asList(r.getArrayOfStrings("scopes")),
                r.getOffsetDateTime("created_at").toInstant(), r.getOffsetDateTime("updated_at").toInstant(),
                sealed == null ? null : sealed.getBytes());
    }

    private static <T> List<T> map(RowSet<Row> rows, Function<Row, T> f) {
        List<T> list = new ArrayList<>(rows.rowCount());
        rows.forEach(r -> list.add(f.apply(r)));
        return list;
    }
}
