package org.ziggurat.auth.keys;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** The signing_key table. */
@ApplicationScoped
public class SigningKeyRepository {

    /** One lock for the key series of every replica: two replicas never both create the next key. */
    static final long ROTATION_LOCK = 0x7a696b7973L; // "ziks"

    public record KeyRow(String kid, String alg, String publicJwk, byte[] privateJwk, OffsetDateTime createdAt,
            OffsetDateTime retireAt, OffsetDateTime dropAt) {
    }

    private final Pool pool;

    SigningKeyRepository(Pool pool) {
        this.pool = pool;
    }

    /** The keys still published, oldest first. */
    public Uni<List<KeyRow>> published() {
        return pool.preparedQuery("SELECT * FROM signing_key WHERE drop_at > now() ORDER BY created_at, kid").execute()
                .map(rows -> {
                    List<KeyRow> keys = new ArrayList<>();
                    rows.forEach(row -> keys.add(of(row)));
                    return keys;
                });
    }

    /**
     * Runs {@code work} in a transaction that holds the rotation lock, with the newest retire_at of
     * each algorithm as it stands under the lock.
     */
    public <T> Uni<T> underRotationLock(java.util.function.Function<SqlConnection, Uni<T>> work) {
        return pool.withTransaction(connection -> connection.preparedQuery("SELECT pg_advisory_xact_lock($1)")
                .execute(Tuple.of(ROTATION_LOCK)).chain(() -> work.apply(connection)));
    }

    /** The latest retire_at of the algorithm's keys, or null when it has none. */
    public Uni<OffsetDateTime> lastRetirement(SqlConnection connection, String alg) {
        return connection.preparedQuery("SELECT max(retire_at) AS last FROM signing_key WHERE alg = $1").execute(Tuple.of(alg))
                .map(rows -> rows.iterator().next().getOffsetDateTime("last"));
    }

    public Uni<Void> insert(SqlConnection connection, KeyRow key) {
        return connection.preparedQuery("INSERT INTO signing_key (kid, alg, public_jwk, private_jwk, created_at, retire_at, "
                        + "drop_at) VALUES ($1, $2, $3, $4, $5, $6, $7)")
                .execute(Tuple.tuple(List.of(key.kid(), key.alg(), key.publicJwk(), io.vertx.core.buffer.Buffer.buffer(
                        key.privateJwk()), key.createdAt(), key.retireAt(), key.dropAt())))
                .replaceWithVoid();
    }

    /** Keys whose last token has expired go. */
    public Uni<Integer> dropExpired() {
        return pool.preparedQuery("DELETE FROM signing_key WHERE drop_at <= now()").execute().map(rows -> rows.rowCount());
    }

    private static KeyRow of(Row row) {
        return new KeyRow(row.getString("kid"), row.getString("alg"), row.getString("public_jwk"),
                row.getBuffer("private_jwk").getBytes(), utc(row.getOffsetDateTime("created_at")),
                utc(row.getOffsetDateTime("retire_at")), utc(row.getOffsetDateTime("drop_at")));
    }

    private static OffsetDateTime utc(OffsetDateTime t) {
        return t.withOffsetSameInstant(ZoneOffset.UTC);
    }
}
