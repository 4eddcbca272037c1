package org.ziggurat.events.webhooks;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.platform.rest.queue.QueueRepository;
import org.ziggurat.platform.rest.queue.QueueTable;

import java.util.List;

/**
 * The webhook outbox (V9): one row per event that a subscription takes, written by the statement
 * that records the event (EventRepository), fanned out here after the commit into its repository's
 * log (V10), one row per event, from which each lane (a subscription's deliveries of the
 * repository) is given its next deliveries while it has fewer than {@link #PENDING_PER_LANE}
 * pending: here, and by each delivery of the lane (WebhookDeliveryRepository). A repository's
 * outbox rows are one lane of the queue ({@link #FANOUT}), so only its oldest row is ever claimed:
 * its events are logged one transaction at a time, in event order, and each subscription's
 * deliveries of it get ids in that order (the delivery lanes' order), whichever replica fans out.
 */
@ApplicationScoped
public class WebhookFanoutRepository {

    /** Rows are owed until fanned out, which deletes them; claimed by their repository's lane head. */
    static final QueueTable FANOUT = QueueTable.of("events_fanout", "webhook_fanout", "true").error(null)
            .lanes(List.of("repository_id"), "id").build();

    /**
     * Deliveries a lane has pending at most: more are queued from the repository's log as these go
     * out (V10; V11, whose trigger filling the lanes of a webhook made active again says 10 too).
     */
    static final int PENDING_PER_LANE = 10;

    /**
     * The claimed head, if this claim still holds it ($1 its id, $2 the claim's attempts), and up to
     * $3 rows after it in its lane, deleted; each event appended to its repository's log, one row
     * whatever the number of subscriptions, at the positions after the log's end, in event order;
     * and a cursor at that end for each subscription of the repository that has none yet (none
     * took an event before). A claim taken over (its lease ran out) deletes no head and so does
     * nothing. After a full batch the lane pauses (paced).
     */
    private static final String FAN_OUT = "WITH head AS (DELETE FROM webhook_fanout f WHERE f.id = $1 AND f.attempts = $2 "
            + "RETURNING f.id, f.repository_id), "
            + "rest AS (DELETE FROM webhook_fanout f WHERE f.id IN (SELECT n.id FROM webhook_fanout n JOIN head h "
            + "ON n.repository_id = h.repository_id AND n.id > h.id ORDER BY n.id LIMIT $3 FOR UPDATE OF n) RETURNING f.id), "
            + "taken AS (SELECT id FROM head UNION ALL SELECT id FROM rest), "
            + "log_end AS (INSERT INTO webhook_event_log_end (repository_id, position) "
            + "SELECT h.repository_id, (SELECT count(*) FROM taken) FROM head h ON CONFLICT (repository_id) "
            + "DO UPDATE SET position = webhook_event_log_end.position + excluded.position "
            + "RETURNING repository_id, position - (SELECT count(*) FROM taken) AS before), "
            + "logged AS (INSERT INTO webhook_event_log (repository_id, position, event_id) "
            + "SELECT g.repository_id, g.before + row_number() OVER (ORDER BY t.id), t.id FROM taken t, log_end g), "
            + "cursors AS (INSERT INTO webhook_lane_cursor (subscription_id, repository_id, position) "
            + "SELECT s.id, g.repository_id, g.before FROM log_end g JOIN repository r ON r.id = g.repository_id "
            + "JOIN webhook_subscription s ON s.namespace = r.namespace AND (s.repository IS NULL OR s.repository = r.name) "
            + "AND s.stream = 'data' ON CONFLICT (subscription_id, repository_id) DO NOTHING), "
            // A full batch: more wait (a backlog). The lane's next row waits as long as this statement took, so that a
            // repository's backlog takes at most half of one connection's time, and the appends making it the rest.
            + "paced AS (UPDATE webhook_fanout f SET next_attempt_at = now() + (clock_timestamp() - now()) "
            + "WHERE (SELECT count(*) FROM taken) > $3 AND f.id = (SELECT min(n.id) FROM webhook_fanout n JOIN head h "
            + "ON n.repository_id = h.repository_id WHERE n.id > (SELECT max(id) FROM taken))) "
            + "SELECT (SELECT count(*) FROM taken) AS events, (SELECT repository_id FROM head) AS repository_id";

    /**
     * Each lane of the repository ($1) with room gets its next deliveries (webhook_fill, which wakes
     * the delivery workers), in subscription order (the cursors' locks always taken in one order).
     * A lane seen full here may get room before this commits: it has other deliveries pending
     * still, and the delivery of each fills it again.
     */
    private static final String FILL_LANES = "SELECT coalesce(sum(webhook_fill(c.subscription_id, c.repository_id, $2::int)), 0) "
            + "AS deliveries FROM (SELECT c.subscription_id, c.repository_id FROM webhook_lane_cursor c WHERE c.repository_id = $1 "
            + "AND (SELECT count(*) FROM webhook_delivery d WHERE d.subscription_id = c.subscription_id AND d.lane = c.repository_id "
            + "AND d.state = 'pending') < $2 ORDER BY c.subscription_id) c";

    private final Pool pool;

    WebhookFanoutRepository(Pool pool) {
        this.pool = pool;
    }

    /** What one fan-out did: events fanned out (0: the claim had been taken over), deliveries queued. */
    public record Fanned(long events, long deliveries) {
    }

    /**
     * The claimed row's event and up to {@code more} after it in its repository, logged, and the
     * repository's lanes with room filled from its log, in one transaction: the events are in the log
     * exactly when their outbox rows are gone.
     */
    public Uni<Fanned> fanOut(QueueRepository.Claimed head, int more) {
        return pool.withTransaction(conn -> conn.preparedQuery(FAN_OUT).execute(Tuple.of(head.id(), head.attempts(), more))
                .chain(rows -> {
                    Row row = rows.iterator().next();
                    long events = row.getLong("events");
                    if (events == 0) {
                        return Uni.createFrom().item(new Fanned(0, 0));
                    }
                    return conn.preparedQuery(FILL_LANES).execute(Tuple.of(row.getLong("repository_id"), PENDING_PER_LANE))
                            .map(filled -> new Fanned(events, filled.iterator().next().getLong("deliveries")));
                }));
    }

    /**
     * The lane of a delivery just delivered, one shorter, given its next deliveries from the
     * repository's log, in the delivery's transaction: a lane with events still to queue never waits
     * for another fan-out. Nothing for the audit stream's deliveries (queued with their events).
     */
    static Uni<RowSet<Row>> fillLaneOf(SqlConnection conn, long deliveryId) {
        return conn.preparedQuery("SELECT webhook_fill(d.subscription_id, d.lane, $2::int) FROM webhook_delivery d "
                + "WHERE d.id = $1 AND d.event_id IS NOT NULL").execute(Tuple.of(deliveryId, PENDING_PER_LANE));
    }
}
