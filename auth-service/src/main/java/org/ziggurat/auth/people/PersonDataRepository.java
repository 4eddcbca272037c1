package org.ziggurat.auth.people;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.AuditActor;

/** What auth-service holds about one person, as their export lists it. */
@ApplicationScoped
public class PersonDataRepository {

    private final Pool pool;

    PersonDataRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * The applications the person owns (never a secret), what they gave applications (consents,
     * with each one's live tokens and last use), their sign-ins, and permissions owners gave them.
     */
    public Uni<JsonObject> export(long personId) {
        Uni<JsonArray> applications = list("SELECT json_build_object('client_id', client_id, 'name', name, "
                + "'confidential', confidential, 'redirect_uris', redirect_uris, 'scopes', scopes, 'verified', verified, "
                + "'created_at', created_at, 'updated_at', updated_at) AS row FROM application WHERE owner_id = $1 ORDER BY id",
                personId);
        Uni<JsonArray> grants = list("SELECT json_build_object('application', a.name, 'client_id', a.client_id, "
                + "'scopes', c.scopes, 'since', c.created_at, 'changed_at', c.updated_at, "
                + "'live_tokens', (SELECT count(*) FROM token t WHERE t.person_id = c.person_id AND t.application_id = a.id "
                + "AND t.revoked_at IS NULL AND t.expires_at > now()), "
                + "'last_used_at', (SELECT max(t.created_at) FROM token t WHERE t.person_id = c.person_id "
                + "AND t.application_id = a.id)) AS row FROM consent c JOIN application a ON a.id = c.application_id "
                + "WHERE c.person_id = $1 ORDER BY c.id", personId);
        Uni<JsonArray> sessions = list("SELECT json_build_object('started_at', created_at, 'last_seen_at', last_seen_at, "
                + "'client_address', client_address, 'user_agent', user_agent, 'expires_at', expires_at) AS row "
                + "FROM login_session WHERE person_id = $1 ORDER BY created_at", personId);
        Uni<JsonArray> permissions = list("SELECT json_build_object('client_id', a.client_id, 'application', a.name, "
                + "'permissions', x.permissions, 'since', x.created_at) AS row FROM accessor x JOIN application a "
                + "ON a.id = x.application_id WHERE x.kind = 'person' AND x.subject_id = $1 ORDER BY a.id", personId);
        return Uni.combine().all().unis(applications, grants, sessions, permissions).asTuple()
                .map(all -> new JsonObject().put("applications", all.getItem1()).put("authorized_applications", all.getItem2())
                        .put("sessions", all.getItem3()).put("application_permissions", all.getItem4()));
    }

    /**
     * What is left of the person once their tokens, sessions and applications are gone: their
     * consents, the permissions owners gave them, their spent tokens and codes. Idempotent.
     */
    public Uni<Long> forget(long personId) {
        // Their grants go as their own change, for the audit stream.
        return pool.withTransaction(conn -> AuditActor.name(conn, personId)
                .chain(() -> conn.preparedQuery("DELETE FROM consent WHERE person_id = $1").execute(Tuple.of(personId)))
                .map(rows -> (long) rows.rowCount())
                .chain(sofar -> conn.preparedQuery("DELETE FROM accessor WHERE kind = 'person' AND subject_id = $1")
                        .execute(Tuple.of(personId)).map(rows -> sofar + rows.rowCount()))
                .chain(sofar -> conn.preparedQuery("DELETE FROM authorization_code WHERE person_id = $1")
                        .execute(Tuple.of(personId)).map(rows -> sofar + rows.rowCount()))
                .chain(sofar -> conn.preparedQuery("UPDATE device_authorization SET person_id = NULL, username = NULL "
                                + "WHERE person_id = $1").execute(Tuple.of(personId)).map(rows -> sofar + rows.rowCount()))
                .chain(sofar -> conn.preparedQuery("DELETE FROM token WHERE person_id = $1 AND revoked_at IS NOT NULL")
                        .execute(Tuple.of(personId)).map(rows -> sofar + rows.rowCount())));
    }

    private Uni<JsonArray> list(String sql, long personId) {
        return pool.preparedQuery(sql).execute(Tuple.of(personId)).map(rows -> {
            JsonArray out = new JsonArray();
            rows.forEach(row -> out.add(row.getJsonObject("row")));
            return out;
        });
    }
}
