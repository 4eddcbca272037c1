package org.ziggurat.auth.clients;

import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.platform.permissions.UserPermissions;

import java.util.ArrayList;
import java.util.List;

/** User permissions given by applications' owners, to people and to organizations. */
@ApplicationScoped
public class AccessorRepository {

    public static final String PERSON = "person";
    public static final String ORGANIZATION = "organization";

    private final Pool pool;

    AccessorRepository(Pool pool) {
        this.pool = pool;
    }

    public record Accessor(long applicationId, String kind, long subjectId, UserPermissions permissions) {
    }

    /** True when it was created, false when changed. */
    public Uni<Boolean> put(long applicationId, String kind, long subjectId, UserPermissions permissions) {
        return pool.preparedQuery("INSERT INTO accessor (application_id, kind, subject_id, permissions) VALUES ($1, $2, $3, $4) "
                        + "ON CONFLICT (application_id, kind, subject_id) DO UPDATE SET permissions = $4, updated_at = now() "
                        + "RETURNING (xmax = 0) AS created")
                .execute(Tuple.of(applicationId, kind, subjectId, permissions.toJson()))
                .map(rows -> rows.iterator().next().getBoolean("created"));
    }

    public Uni<Boolean> delete(long applicationId, String kind, long subjectId) {
        return pool.preparedQuery("DELETE FROM accessor WHERE application_id = $1 AND kind = $2 AND subject_id = $3")
                .execute(Tuple.of(applicationId, kind, subjectId)).map(rows -> rows.rowCount() > 0);
    }

    public Uni<List<Accessor>> ofApplication(long applicationId) {
        return pool.preparedQuery("SELECT application_id, kind, subject_id, permissions FROM accessor "
                        + "WHERE application_id = $1 ORDER BY kind, subject_id")
                .execute(Tuple.of(applicationId)).map(AccessorRepository::all);
    }

    /** The rows that concern one person for these applications: their own, and those of their organizations. */
    public Uni<List<Accessor>> forPerson(Long[] applicationIds, long personId, Long[] organizationIds) {
        return pool.preparedQuery("SELECT application_id, kind, subject_id, permissions FROM accessor "
                        + "WHERE application_id = ANY($1) AND ((kind = 'person' AND subject_id = $2) "
                        + "OR (kind = 'organization' AND subject_id = ANY($3)))")
                .execute(Tuple.of(applicationIds, personId, organizationIds)).map(AccessorRepository::all);
    }

    private static List<Accessor> all(RowSet<Row> rows) {
        List<Accessor> list = new ArrayList<>();
        rows.forEach(r -> list.add(new Accessor(r.getLong("application_id"), r.getString("kind"), r.getLong("subject_id"),
                UserPermissions.fromJson((JsonObject) r.getValue("permissions")))));
        return list;
    }
}
