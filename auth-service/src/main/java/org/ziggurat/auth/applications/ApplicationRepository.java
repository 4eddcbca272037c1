package org.ziggurat.auth.applications;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;

@ApplicationScoped
public class ApplicationRepository {

    @Inject
    Pool pool;

    public record NewApplication(Long ownerId, String name, String clientId, byte[] clientSecretHash,
            boolean confidential, List<String> redirectUris, List<String> scopes, boolean passwordGrant,
            boolean introspection) {
    }

    public Uni<ApplicationRow> insert(NewApplication app) {
        return one("INSERT INTO application (owner_id, name, client_id, client_secret_hash, confidential, redirect_uris, "
                + "scopes, password_grant, introspection) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING "
                + ApplicationRow.COLUMNS, Tuple.tuple()
                .addValue(app.ownerId()).addValue(app.name()).addValue(app.clientId())
                .addValue(app.clientSecretHash() == null ? null : Buffer.buffer(app.clientSecretHash()))
                .addValue(app.confidential()).addValue(app.redirectUris().toArray(String[]::new))
                .addValue(app.scopes().toArray(String[]::new)).addValue(app.passwordGrant())
                .addValue(app.introspection()));
    }

    public Uni<ApplicationRow> byClientId(String clientId) {
        return one("SELECT " + ApplicationRow.COLUMNS + " FROM application WHERE client_id = $1", Tuple.of(clientId));
    }

    /** The owner's application; null when it does not exist or belongs to someone else. */
    public Uni<ApplicationRow> ownedBy(long id, long ownerId) {
        return one("SELECT " + ApplicationRow.COLUMNS + " FROM application WHERE id = $1 AND owner_id = $2",
                Tuple.of(id, ownerId));
    }

    public Uni<List<ApplicationRow>> listOwnedBy(long ownerId) {
        return pool.preparedQuery("SELECT " + ApplicationRow.COLUMNS + " FROM application WHERE owner_id = $1 ORDER BY id")
                .execute(Tuple.of(ownerId)).map(ApplicationRepository::all);
    }

    public Uni<ApplicationRow> update(long id, String name, List<String> redirectUris, List<String> scopes,
            boolean passwordGrant) {
        return one("UPDATE application SET name = $2, redirect_uris = $3, scopes = $4, password_grant = $5, "
                + "updated_at = now() WHERE id = $1 RETURNING " + ApplicationRow.COLUMNS,
                Tuple.of(id, name, redirectUris.toArray(String[]::new), scopes.toArray(String[]::new), passwordGrant));
    }

    public Uni<ApplicationRow> replaceSecret(long id, byte[] secretHash) {
        return one("UPDATE application SET client_secret_hash = $2, updated_at = now() WHERE id = $1 RETURNING "
                + ApplicationRow.COLUMNS, Tuple.of(id, Buffer.buffer(secretHash)));
    }

    /** Codes and tokens go with it (ON DELETE CASCADE): nothing it was issued still works. */
    public Uni<Boolean> delete(long id) {
        return pool.preparedQuery("DELETE FROM application WHERE id = $1").execute(Tuple.of(id))
                .map(rows -> rows.rowCount() > 0);
    }

    /** Creates or updates a platform client (no owner) from settings, such as the gateway's. */
    public Uni<ApplicationRow> upsertPlatformClient(String clientId, String name, byte[] secretHash, boolean introspection) {
        return one("INSERT INTO application (owner_id, name, client_id, client_secret_hash, confidential, redirect_uris, "
                + "scopes, password_grant, introspection) VALUES (NULL, $2, $1, $3, true, '{}', '{}', false, $4) "
                + "ON CONFLICT (client_id) DO UPDATE SET client_secret_hash = $3, introspection = $4, name = $2, "
                + "updated_at = now() RETURNING " + ApplicationRow.COLUMNS,
                Tuple.of(clientId, name, Buffer.buffer(secretHash), introspection));
    }

    private Uni<ApplicationRow> one(String sql, Tuple args) {
        return pool.preparedQuery(sql).execute(args)
                .map(rows -> rows.rowCount() == 0 ? null : ApplicationRow.from(rows.iterator().next()));
    }

    private static List<ApplicationRow> all(RowSet<Row> rows) {
        List<ApplicationRow> list = new ArrayList<>(rows.rowCount());
        rows.forEach(r -> list.add(ApplicationRow.from(r)));
        return list;
    }
}
