package org.ziggurat.events.data;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * Data events in Postgres. Writing one event is one transaction of a fixed number of statements
 * whatever its number of commits (arrays through unnest); its items are locked in id order, so
 * concurrent events on one item queue up and each revision follows the one before.
 */
@ApplicationScoped
public class EventRepository {

    public static final String CHANNEL = "data_events";

    private final Pool pool;
    private final JsonColumns json;
    private final CommitWriter commitWriter;

    EventRepository(Pool pool, JsonColumns json, CommitWriter commitWriter) {
        this.pool = pool;
        this.json = json;
        this.commitWriter = commitWriter;
    }

    public record EventRow(long id, String kind, String note, long creatorId, String creatorUsername, String clientId,
            int commitsCount, OffsetDateTime createdAt) {
        public static final String COLUMNS = "e.id, e.kind, e.note, e.creator_id, e.creator_username, e.client_id, "
                + "e.commits_count, e.created_at";

        public static EventRow from(Row r) {
            return new EventRow(r.getLong("id"), r.getString("kind"), r.getString("note"), r.getLong("creator_id"),
                    r.getString("creator_username"), r.getString("client_id"), r.getInteger("commits_count"),
                    r.getOffsetDateTime("created_at"));
        }
    }

    public record CommitRow(long id, String type, EventInput.Identifier identifier, int revision, JsonNode payload,
            JsonNode changeset, OffsetDateTime createdAt) {
    }

    public record NewEvent(String namespace, String repository, EventInput input, long creatorId, String creatorUsername,
            String clientId, String idempotencyKey, byte[] requestHash) {
    }

    /** What a write stored: the event and its commits, as a read of them would answer. */
    public record Written(EventRow event, List<CommitRow> commits) {
    }

    /** The repository's id by name, created with its first event (see {@link #write}). */
    private static final String REPOSITORY_CTE = "found AS (SELECT id FROM repository WHERE namespace = $1 AND name = $2), "
            + "made AS (INSERT INTO repository (namespace, name) SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM found) "
            + "ON CONFLICT (namespace, name) DO NOTHING RETURNING id), "
            + "repo AS (SELECT id FROM found UNION ALL SELECT id FROM made)";

    private static final String INSERT_EVENT = "INSERT INTO data_event (repository_id, kind, note, creator_id, "
            + "creator_username, client_id, commits_count, idempotency_key, request_hash) "
            + "SELECT repo.id, $3::text, $4::text, $5::bigint, $6::text, $7::text, $8::int, $9::text, $10::bytea FROM repo "
            + "RETURNING *";

    /**
     * The webhook outbox (V9): one row for the event when any subscription of the namespace or the
     * repository takes its kind, in the statement that records the event, so the two commit
     * together; its deliveries, one per subscription, are queued after the commit by the fan-out
     * (webhooks.WebhookFanout), which holds to the subscriptions as they were at the event. With
     * no subscription it is one look-up of an empty partial index; with many, still one row.
     */
    private static final String QUEUE_FANOUT = "queued AS (INSERT INTO webhook_fanout (id, repository_id) "
            + "SELECT e.id, e.repository_id FROM e WHERE EXISTS (SELECT 1 FROM webhook_subscription s WHERE s.namespace = $1 "
            + "AND (s.repository IS NULL OR s.repository = $2) AND s.state <> 'paused' AND $3::text = ANY (s.kinds)))";

    private static final String RETURNED_EVENT = "e.id, e.kind, e.note, e.creator_id, e.creator_username, e.client_id, "
            + "e.commits_count, e.created_at, e.repository_id";

    /**
     * An event without commits, the common case, is one statement and so one commit: the
     * repository found or made, the row, and its notification. It was a transaction of four
     * statements and then a read of the event: eight round trips per append, one of them a commit.
     */
    private static final String APPEND_ALONE = "WITH " + REPOSITORY_CTE + ", e AS (" + INSERT_EVENT + "), "
            + QUEUE_FANOUT + ", notified AS (SELECT pg_notify($11, $12) FROM e) SELECT " + RETURNED_EVENT
            + " FROM e, notified";

    private static final String APPEND_WITH_COMMITS = "WITH " + REPOSITORY_CTE + ", e AS (" + INSERT_EVENT + "), "
            + QUEUE_FANOUT + " SELECT " + RETURNED_EVENT + " FROM e";

    /**
     * The event as stored. Two first events of a repository at once: the second's repository
     * insert does nothing, so it inserts no event either (its snapshot does not see the first's
     * repository); it runs once more, and then reads the repository the first committed.
     */
    public Uni<Written> write(NewEvent event) {
        String notification = event.namespace() + "/" + event.repository();
        Uni<Written> once = event.input().commits().isEmpty()
                ? pool.preparedQuery(APPEND_ALONE).execute(eventArgs(event).addValue(CHANNEL).addValue(notification))
                        .map(rows -> rows.rowCount() == 0 ? null : new Written(EventRow.from(rows.iterator().next()), List.of()))
                : pool.withTransaction(conn -> conn.preparedQuery(APPEND_WITH_COMMITS).execute(eventArgs(event))
                        .chain(rows -> {
                            if (rows.rowCount() == 0) {
                                return Uni.createFrom().nullItem();
                            }
                            Row row = rows.iterator().next();
                            EventRow stored = EventRow.from(row);
                            return commitWriter.write(conn, row.getLong("repository_id"), stored.id(), event.input().commits())
                                    .call(() -> conn.preparedQuery("SELECT pg_notify($1, $2)")
                                            .execute(Tuple.of(CHANNEL, notification)))
                                    .map(commits -> new Written(stored, commits));
                        }));
        return once.onItem().ifNull().switchTo(() -> once)
                .onItem().ifNull().failWith(() -> new IllegalStateException("the repository of a new event was not found"));
    }

    private static Tuple eventArgs(NewEvent event) {
        return Tuple.tuple().addValue(event.namespace()).addValue(event.repository()).addValue(event.input().kind())
                .addValue(event.input().note()).addValue(event.creatorId()).addValue(event.creatorUsername())
                .addValue(event.clientId()).addValue(event.input().commits().size()).addValue(event.idempotencyKey())
                .addValue(event.requestHash() == null ? null : Buffer.buffer(event.requestHash()));
    }

    public Uni<Long> repositoryId(String namespace, String repository) {
        return pool.preparedQuery("SELECT id FROM repository WHERE namespace = $1 AND name = $2")
                .execute(Tuple.of(namespace, repository))
                .map(rows -> rows.rowCount() == 0 ? null : rows.iterator().next().getLong("id"));
    }

    /**
     * Newest first; one row more than asked, to tell whether a next page exists. The repository
     * is found by name in the same statement: one round trip a page, not two (an unknown
     * repository is an empty page).
     */
    public Uni<List<EventRow>> page(String namespace, String repository, String kind, OffsetDateTime since, int limit,
            long offset) {
        Tuple args = Tuple.of(namespace, repository);
        if (kind != null) {
            args.addValue(kind);
        }
        if (since != null) {
            args.addValue(since);
        }
        return pool.preparedQuery(PAGE_BY_SHAPE[(kind != null ? 2 : 0) | (since != null ? 1 : 0)])
                .execute(args.addValue(limit).addValue(offset)).map(rows -> events(rows));
    }

    /**
     * One statement per shape of the list, each ordered exactly as its index is, so that the plan
     * reads that index: with "$2 IS NULL OR kind = $2" and "ORDER BY id DESC" the planner walked
     * the primary key backwards past every newer event of other repositories, which grows with
     * every other repository's events. The repository is matched
     * with "= ANY" of one value on purpose: an "=" makes the planner drop repository_id from the
     * ORDER BY, and the primary key then looks just as good to it (EventPagePlanTest). Its id is
     * an init plan: looked up once, before the index is read.
     */
    /** The four statements, built once (a list is a hot path). */
    private static final String[] PAGE_BY_SHAPE = {pageSql(false, false), pageSql(false, true), pageSql(true, false),
            pageSql(true, true)};

    static String pageSql(boolean ofKind, boolean since) {
        int n = 3;
        StringBuilder sql = new StringBuilder("SELECT ").append(EventRow.COLUMNS)
                .append(" FROM data_event e WHERE e.repository_id = ANY(ARRAY[(SELECT r.id FROM repository r")
                .append(" WHERE r.namespace = $1 AND r.name = $2)])");
        if (ofKind) {
            sql.append(" AND e.kind = ANY(ARRAY[$").append(n++).append("::text])");
        }
        if (since) {
            sql.append(" AND e.created_at > $").append(n++);
        }
        sql.append(ofKind ? " ORDER BY e.repository_id, e.kind, e.id DESC" : " ORDER BY e.repository_id, e.id DESC");
        return sql.append(" LIMIT $").append(n).append(" OFFSET $").append(n + 1).toString();
    }

    public Uni<EventRow> event(long repositoryId, long id) {
        return pool.preparedQuery("SELECT " + EventRow.COLUMNS + " FROM data_event e WHERE e.repository_id = $1 AND e.id = $2")
                .execute(Tuple.of(repositoryId, id)).map(rows -> rows.rowCount() == 0 ? null : EventRow.from(rows.iterator().next()));
    }

    /** For streams: events after an id, oldest first, by repository name. */
    public Uni<List<EventRow>> after(String namespace, String repository, long afterId, int limit) {
        return pool.preparedQuery("SELECT " + EventRow.COLUMNS + " FROM data_event e JOIN repository r ON r.id = e.repository_id "
                        + "WHERE r.namespace = $1 AND r.name = $2 AND e.id > $3 ORDER BY e.id LIMIT $4")
                .execute(Tuple.of(namespace, repository, afterId, limit)).map(rows -> events(rows));
    }

    public Uni<Long> newestId(String namespace, String repository) {
        return pool.preparedQuery("SELECT coalesce(max(e.id), 0) AS newest FROM data_event e JOIN repository r "
                        + "ON r.id = e.repository_id WHERE r.namespace = $1 AND r.name = $2")
                .execute(Tuple.of(namespace, repository)).map(rows -> rows.iterator().next().getLong("newest"));
    }

    public Uni<List<CommitRow>> commits(long eventId) {
        return pool.preparedQuery("SELECT c.id, c.type, i.identifier_id, i.identifier_type, i.identifier_agent, c.revision, "
                        + "c.payload::text AS payload, c.changeset::text AS changeset, c.created_at FROM data_commit c "
                        + "JOIN item i ON i.id = c.item_id WHERE c.event_id = $1 ORDER BY c.position")
                .execute(Tuple.of(eventId)).map(rows -> {
                    List<CommitRow> list = new ArrayList<>();
                    rows.forEach(r -> list.add(new CommitRow(r.getLong("id"), r.getString("type"),
                            new EventInput.Identifier(r.getString("identifier_id"), r.getString("identifier_type"),
                                    r.getString("identifier_agent")), r.getInteger("revision"), json.read(r.getString("payload")),
                            json.read(r.getString("changeset")), r.getOffsetDateTime("created_at"))));
                    return list;
                });
    }

    /** A replay of an Idempotency-Key: the first event's id and its request's hash. */
    public record Previous(long id, byte[] requestHash) {
    }

    public Uni<Previous> byIdempotencyKey(String namespace, String repository, long creatorId, String key) {
        return pool.preparedQuery("SELECT e.id, e.request_hash FROM data_event e JOIN repository r ON r.id = e.repository_id "
                        + "WHERE r.namespace = $1 AND r.name = $2 AND e.creator_id = $3 AND e.idempotency_key = $4")
                .execute(Tuple.of(namespace, repository, creatorId, key))
                .map(rows -> rows.rowCount() == 0 ? null
                        : new Previous(rows.iterator().next().getLong("id"), rows.iterator().next().getBuffer("request_hash").getBytes()));
    }

    private static List<EventRow> events(RowSet<Row> rows) {
        List<EventRow> list = new ArrayList<>(rows.rowCount());
        rows.forEach(r -> list.add(EventRow.from(r)));
        return list;
    }
}
