package org.ziggurat.vocab.imports;

import io.vertx.core.buffer.Buffer;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.platform.rest.queue.QueueRepository;
import org.ziggurat.platform.rest.queue.QueueTable;

import java.util.List;

@ApplicationScoped
public class ImportJobRepository {

    /**
     * The jobs as a queue (V8): queued and running ones are owed; a claim makes a job running, its
     * lease the time by which its run must beat again ({@link ImportWorker}). How a run ended, the
     * import records itself, in its own transaction.
     */
    static final QueueTable JOBS = QueueTable.of("vocab_imports", "import_job", "q.state IN ('queued', 'running')").error(null)
            .onClaim("state = 'running', started_at = coalesce(q.started_at, date_trunc('milliseconds', now())), "
                    + "concepts_done = 0")
            .view("c.scheme_id, c.format, c.document, c.requester_id, c.requester_username FROM claimed c").build();

    /** A job a replica has claimed, with what it needs to run it. */
    public record Claimed(long id, long schemeId, String format, byte[] document, long requesterId, String requesterUsername,
            int attempts) {

        static Claimed from(QueueRepository.Claimed claimed) {
            Row r = claimed.row();
            return new Claimed(claimed.id(), r.getLong("scheme_id"), r.getString("format"), r.getBuffer("document").getBytes(),
                    r.getLong("requester_id"), r.getString("requester_username"), claimed.attempts());
        }
    }

    private final Pool pool;
    private final ObjectMapper mapper;

    ImportJobRepository(Pool pool, ObjectMapper mapper) {
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

    /** Progress of this run of the job ({@code attempt}); a later claim has taken over when it matches nothing. */
    public Uni<Void> progress(long id, int attempt, int total, int done) {
        return pool.preparedQuery("UPDATE import_job SET concepts_total = $2, concepts_done = $3 "
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
