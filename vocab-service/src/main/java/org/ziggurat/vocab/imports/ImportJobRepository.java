package org.ziggurat.vocab.imports;

import org.ziggurat.vocab.VocabConfig;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

@ApplicationScoped
public class ImportJobRepository {

    /** A job a replica has claimed, with what it needs to run it. */
    public record Claimed(long id, long schemeId, String format, byte[] document, long requesterId, String requesterUsername,
            int attempts) {
    }

    /** A replica that stopped beating for this long is taken to be gone; its job is claimed again. */
    private final Duration staleAfter;
    private final Pool pool;
    private final ObjectMapper mapper;

    ImportJobRepository(Pool pool, ObjectMapper mapper, VocabConfig config) {
        this.staleAfter = config.imports().staleAfter();
        this.pool = pool;
        this.mapper = mapper;
    }

    public Uni<ImportJob> create(long schemeId, String format, byte[] document, long requesterId, String requesterUsername) {
        return pool.preparedQuery("INSERT INTO import_job AS j (scheme_id, format, document, requester_id, requester_username) "
                        + "VALUES ($1, $2, $3, $4, $5) RETURNING " + ImportJob.COLUMNS)
                .execute(Tuple.of(schemeId, format, Buffer.buffer(document), requesterId,
                        requesterUsername))
                .map(rows -> ImportJob.from(rows.iterator().next(), mapper));
    }

    /** The job with the scheme it belongs to, when that scheme is in the namespace. */
    public Uni<ImportJob> inNamespace(String namespace, long id) {
        return pool.preparedQuery("SELECT " + ImportJob.COLUMNS + " FROM import_job j JOIN scheme s ON s.id = j.scheme_id "
                        + "WHERE j.id = $1 AND s.namespace = $2")
                .execute(Tuple.of(id, namespace))
                .map(rows -> rows.rowCount() == 0 ? null : ImportJob.from(rows.iterator().next(), mapper));
    }

    /** The oldest queued job, or a running one whose replica went away; null when there is none. */
    public Uni<Claimed> claim() {
        return pool.preparedQuery("UPDATE import_job SET state = 'running', "
                        + "started_at = coalesce(started_at, date_trunc('milliseconds', now())), heartbeat_at = now(), "
                        + "concepts_done = 0, attempts = attempts + 1 WHERE id = (SELECT id FROM import_job WHERE state = 'queued' "
                        + "OR (state = 'running' AND heartbeat_at < now() - make_interval(secs => $1)) "
                        + "ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) "
                        + "RETURNING id, scheme_id, format, document, requester_id, requester_username, attempts")
                .execute(Tuple.of((double) staleAfter.toMillis() / 1000)).map(rows -> {
                    if (rows.rowCount() == 0) {
                        return null;
                    }
                    var r = rows.iterator().next();
                    return new Claimed(r.getLong("id"), r.getLong("scheme_id"), r.getString("format"),
                            r.getBuffer("document").getBytes(), r.getLong("requester_id"), r.getString("requester_username"),
                            r.getInteger("attempts"));
                });
    }

    /** Progress and heartbeat of this run of the job ({@code attempt}); a later claim has taken over when it matches nothing. */
    public Uni<Void> progress(long id, int attempt, int total, int done) {
        return pool.preparedQuery("UPDATE import_job SET concepts_total = $2, concepts_done = $3, heartbeat_at = now() "
                + "WHERE id = $1 AND attempts = $4 AND state = 'running'").execute(Tuple.of(id, total, done, attempt))
                .replaceWithVoid();
    }

    /**
     * Records success on the import's own connection, inside its transaction: if another run has
     * claimed the job since (this one was taken for gone), nothing matches and the import rolls back.
     */
    public Uni<Void> succeeded(SqlConnection conn, long id, int attempt, int total, int created, int replaced,
            List<String> warnings) {
        return conn.preparedQuery("UPDATE import_job SET state = 'succeeded', concepts_total = $2, concepts_done = $2, "
                        + "concepts_created = $3, concepts_replaced = $4, warnings = $5, document = NULL, "
                        + "finished_at = date_trunc('milliseconds', now()) WHERE id = $1 AND attempts = $6 AND state = 'running'")
                .execute(Tuple.of(id, total, created, replaced, new JsonArray(List.copyOf(warnings)), attempt))
                .map(rows -> {
                    if (rows.rowCount() == 0) {
                        throw new IllegalStateException("import " + id + " was claimed again while it ran; this run is rolled back");
                    }
                    return null;
                });
    }

    public Uni<Void> failed(long id, int attempt, List<?> errors, List<String> warnings) {
        return pool.preparedQuery("UPDATE import_job SET state = 'failed', concepts_done = 0, errors = $2, "
                        + "warnings = $3, document = NULL, finished_at = date_trunc('milliseconds', now()) "
                        + "WHERE id = $1 AND attempts = $4")
                .execute(Tuple.of(id, new JsonArray(mapper.convertValue(errors, List.class)), new JsonArray(List.copyOf(warnings)),
                        attempt))
                .replaceWithVoid();
    }
}
