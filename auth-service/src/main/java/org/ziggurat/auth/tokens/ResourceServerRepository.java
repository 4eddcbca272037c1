package org.ziggurat.auth.tokens;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.AuditActor;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * The resource servers operators register through the API (V37 {@code resource_server}), plain
 * SQL. Every write names its operator to the audit stream in its transaction ({@link AuditActor}),
 * and V37's trigger tells every replica at commit.
 */
@ApplicationScoped
public class ResourceServerRepository {

    /** A registered resource server; {@code lifetime} in seconds (null: the platform's). */
    public record Stored(long id, String identifier, String name, List<String> scopes, String format, Integer lifetime,
            String exchangeClientId, String clientId, byte[] secretHash, Instant createdAt, Instant updatedAt) {
    }

    /** What an operator sets; the identifier only when it is made. */
    public record Fields(String identifier, String name, List<String> scopes, String format, Integer lifetime,
            String exchangeClientId) {
    }

    private static final String COLUMNS = "id, identifier, name, scopes, access_token_format, access_token_lifetime, "
            + "exchange_client_id, client_id, client_secret_hash, created_at, updated_at";

    private final Pool pool;

    ResourceServerRepository(Pool pool) {
        this.pool = pool;
    }

    public Uni<List<Stored>> all() {
        return pool.query("SELECT " + COLUMNS + " FROM resource_server ORDER BY id").execute().map(ResourceServerRepository::list);
    }

    /** Null when there is none. */
    public Uni<Stored> byId(long id) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM resource_server WHERE id = $1").execute(Tuple.of(id))
                .map(ResourceServerRepository::first);
    }

    /** The one whose credential has this client_id; null when there is none. */
    public Uni<Stored> byClientId(String clientId) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM resource_server WHERE client_id = $1").execute(Tuple.of(clientId))
                .map(ResourceServerRepository::first);
    }

    /** A new one with its credential; fails with PostgreSQL's unique violation (23505) for a taken identifier. */
    public Uni<Stored> create(Fields fields, String clientId, byte[] secretHash, long operator) {
        return written(operator, conn -> conn.preparedQuery("INSERT INTO resource_server (identifier, name, scopes, "
                + "access_token_format, access_token_lifetime, exchange_client_id, client_id, client_secret_hash, created_by) "
                + "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING " + COLUMNS)
                .execute(Tuple.tuple(Arrays.asList(fields.identifier(), fields.name(), fields.scopes().toArray(String[]::new),
                        fields.format(), fields.lifetime(), fields.exchangeClientId(), clientId, Buffer.buffer(secretHash),
                        operator))));
    }

    /** Its settings replaced (not its identifier or credential); null when there is none. */
    public Uni<Stored> update(long id, Fields fields, long operator) {
        return written(operator, conn -> conn.preparedQuery("UPDATE resource_server SET name = $2, scopes = $3, "
                + "access_token_format = $4, access_token_lifetime = $5, exchange_client_id = $6, updated_at = clock_timestamp() "
                + "WHERE id = $1 RETURNING " + COLUMNS)
                .execute(Tuple.tuple(Arrays.asList(id, fields.name(), fields.scopes().toArray(String[]::new), fields.format(),
                        fields.lifetime(), fields.exchangeClientId()))));
    }

    /** A new secret (its hash); the old one stops working. Null when there is none. */
    public Uni<Stored> replaceSecret(long id, byte[] secretHash, long operator) {
        return written(operator, conn -> conn.preparedQuery("UPDATE resource_server SET client_secret_hash = $2, "
                + "updated_at = clock_timestamp() WHERE id = $1 RETURNING " + COLUMNS)
                .execute(Tuple.of(id, Buffer.buffer(secretHash))));
    }

    /** False when there was none. */
    public Uni<Boolean> delete(long id, long operator) {
        return written(operator, conn -> conn.preparedQuery("DELETE FROM resource_server WHERE id = $1 RETURNING " + COLUMNS)
                .execute(Tuple.of(id))).map(deleted -> deleted != null);
    }

    private Uni<Stored> written(long operator, Function<SqlConnection, Uni<RowSet<Row>>> statement) {
        return pool.withTransaction(conn -> AuditActor.name(conn, operator).chain(() -> statement.apply(conn)))
                .map(ResourceServerRepository::first);
    }

    private static List<Stored> list(RowSet<Row> rows) {
        List<Stored> all = new ArrayList<>();
        rows.forEach(row -> all.add(stored(row)));
        return all;
    }

    private static Stored first(RowSet<Row> rows) {
        var it = rows.iterator();
        return it.hasNext() ? stored(it.next()) : null;
    }

    private static Stored stored(Row row) {
        return new Stored(row.getLong("id"), row.getString("identifier"), row.getString("name"),
                List.of(row.getArrayOfStrings("scopes")), row.getString("access_token_format"),
                row.getInteger("access_token_lifetime"), row.getString("exchange_client_id"), row.getString("client_id"),
                row.getBuffer("client_secret_hash").getBytes(), row.getOffsetDateTime("created_at").toInstant(),
                row.getOffsetDateTime("updated_at").toInstant());
    }
}
