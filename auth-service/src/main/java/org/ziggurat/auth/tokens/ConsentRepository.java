package org.ziggurat.auth.tokens;

import org.ziggurat.auth.oauth.Scopes;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.AuditActor;

import java.util.Arrays;
import java.util.Set;

/** What each person granted each application: the union of the scopes they approved. */
@ApplicationScoped
public class ConsentRepository {

    private final Pool pool;

    ConsentRepository(Pool pool) {
        this.pool = pool;
    }

    /** The person grants it themselves: the audit stream names them. */
    public Uni<Void> grant(long applicationId, long personId, Set<String> scopes) {
        return pool.withTransaction(conn -> AuditActor.name(conn, personId).chain(() -> conn.preparedQuery(
                        "INSERT INTO consent (application_id, person_id, scopes) VALUES ($1, $2, $3) "
                        + "ON CONFLICT (person_id, application_id) DO UPDATE SET scopes = ARRAY(SELECT DISTINCT unnest("
                        + "consent.scopes || EXCLUDED.scopes) ORDER BY 1), updated_at = now()")
                .execute(Tuple.of(applicationId, personId, scopes.toArray(String[]::new))))).replaceWithVoid();
    }

    /** True when the person granted the application anything at all before. */
    public Uni<Boolean> any(long applicationId, long personId) {
        return pool.preparedQuery("SELECT 1 FROM consent WHERE person_id = $1 AND application_id = $2")
                .execute(Tuple.of(personId, applicationId)).map(rows -> rows.rowCount() > 0);
    }

    /** True when the person already granted every one of these scopes ({@code public} always is) to the application. */
    public Uni<Boolean> covers(long applicationId, long personId, Set<String> scopes) {
        return pool.preparedQuery("SELECT scopes FROM consent WHERE person_id = $1 AND application_id = $2")
                .execute(Tuple.of(personId, applicationId))
                .map(rows -> rows.rowCount() > 0
                        && Arrays.asList(rows.iterator().next().getArrayOfStrings("scopes")).containsAll(
                                scopes.stream().filter(s -> !s.equals(Scopes.PUBLIC)).toList()));
    }
}
