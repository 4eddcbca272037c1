package org.ziggurat.events.audit;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * The audit stream (V5). An event is recorded once per (source, source_id), and the statement that
 * records it queues its deliveries to the audit webhooks that take its category (the type's first
 * word: account, membership, application, authorization, webhook, identity_provider, resource_server), as a data event's statement does.
 */
@ApplicationScoped
public class AuditRepository {

    /** This service's own name as a source. */
    public static final String SELF = "events-service";

    /** {@code %s}: the source id (a parameter, or this service's sequence). Parameters: source, type, subject, actor, data, when. */
    private static final String RECORD = "WITH a AS (INSERT INTO audit_event (source, source_id, type, subject, actor_id, data, "
            + "occurred_at) VALUES (%1$s, %2$s, %3$s, %4$s, %5$s, CAST(%6$s AS jsonb), %7$s) ON CONFLICT (source, source_id) "
            + "DO NOTHING RETURNING id, type) "
            + "INSERT INTO webhook_delivery (subscription_id, lane, audit_event_id) SELECT s.id, 0, a.id FROM a "
            + "JOIN webhook_subscription s ON s.stream = 'audit' AND s.state <> 'paused' AND split_part(a.type, '.', 1) = ANY (s.kinds)";

    private static final String RECORD_FROM_SERVICE = String.format(RECORD, "$1", "$2", "$3", "$4", "$5::bigint", "$6::text",
            "$7::timestamptz");

    /**
     * The data as text first: bound where PostgreSQL expects jsonb, the reactive client would send
     * the Java string as a JSON string, not as the object it spells.
     */
    private static final String RECORD_OWN = String.format(RECORD, "'" + SELF + "'", "nextval('audit_source_id')", "?1",
            "?2", "CAST(?3 AS bigint)", "CAST(?4 AS text)", "now()");

    /** As {@link #RECORD_OWN}, for the reactive client's own statements. Parameters: type, subject, actor, data. */
    private static final String RECORD_OWN_SQL = String.format(RECORD, "'" + SELF + "'", "nextval('audit_source_id')", "$1",
            "$2", "$3::bigint", "$4::text", "now()");

    private final Pool pool;

    AuditRepository(Pool pool) {
        this.pool = pool;
    }

    /** An event another service tells of: recorded once, however often it is told. */
    public Uni<Void> record(String source, long sourceId, String type, String subject, Long actorId, JsonObject data,
            OffsetDateTime occurredAt) {
        return pool.preparedQuery(RECORD_FROM_SERVICE)
                .execute(Tuple.tuple().addValue(source).addValue(sourceId).addValue(type).addValue(subject).addValue(actorId)
                        .addValue(data.encode()).addValue(occurredAt))
                .replaceWithVoid();
    }

    /** A change of this service's own, in the caller's Panache transaction: it commits with the change, or neither does. */
    public static Uni<Void> recordOwn(String type, String subject, Long actorId, JsonObject data) {
        return Panache.getSession().chain(session -> session.createNativeQuery(RECORD_OWN)
                .setParameter(1, type).setParameter(2, subject).setParameter(3, actorId).setParameter(4, data.encode())
                .executeUpdate()).replaceWithVoid();
    }

    /** A change of this service's own, in a transaction of the reactive client's ({@code connection}'s). */
    public static Uni<Void> recordOwn(io.vertx.mutiny.sqlclient.SqlClient connection, String type, String subject, Long actorId,
            JsonObject data) {
        return connection.preparedQuery(RECORD_OWN_SQL).execute(Tuple.tuple().addValue(type).addValue(subject).addValue(actorId)
                .addValue(data.encode())).replaceWithVoid();
    }

    /** A recorded event. */
    public record AuditRow(long id, String source, long sourceId, String type, String subject, Long actorId, String data,
            OffsetDateTime occurredAt) {
        public static final String COLUMNS = "a.id AS audit_id, a.source, a.source_id, a.type, a.subject, a.actor_id, "
                + "a.data::text AS audit_data, a.occurred_at";

        public static AuditRow from(Row r) {
            return new AuditRow(r.getLong("audit_id"), r.getString("source"), r.getLong("source_id"), r.getString("type"),
                    r.getString("subject"), r.getLong("actor_id"), r.getString("audit_data"), r.getOffsetDateTime("occurred_at"));
        }
    }

    /** Oldest first after {@code afterId}, of a category (or all), one more than asked. */
    public Uni<List<AuditRow>> after(long afterId, String category, OffsetDateTime since, int limit) {
        return pool.preparedQuery("SELECT " + AuditRow.COLUMNS + " FROM audit_event a WHERE a.id > $1 "
                        + "AND ($2::text IS NULL OR split_part(a.type, '.', 1) = $2) AND ($3::timestamptz IS NULL OR a.created_at >= $3) "
                        + "ORDER BY a.id LIMIT $4")
                .execute(Tuple.tuple().addValue(afterId).addValue(category).addValue(since).addValue(limit))
                .map(rows -> {
                    List<AuditRow> list = new ArrayList<>(rows.rowCount());
                    rows.forEach(r -> list.add(AuditRow.from(r)));
                    return list;
                });
    }
}
