package org.ziggurat.events.webhooks;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.platform.rest.queue.QueueRepository;
import org.ziggurat.platform.rest.queue.QueueTable;

import java.util.List;

/**
 * The webhook outbox (V9): one row per event that a subscription takes, written by the statement
 * that records the event (EventRepository), fanned out here into its deliveries after the commit.
 * A repository's rows are one lane of the queue ({@link #FANOUT}), so only its oldest row is ever
 * claimed: a repository's events are fanned out one transaction at a time, in event order, and each
 * subscription's deliveries of it get ids in that order (the delivery lanes' order), whichever
 * replica fans out.
 */
@ApplicationScoped
public class WebhookFanoutRepository {

    /** Rows are owed until fanned out, which deletes them; claimed by their repository's lane head. */
    static final QueueTable FANOUT = QueueTable.of("events_fanout", "webhook_fanout", "true").error(null)
            .lanes(List.of("repository_id"), "id").build();

    /**
     * The claimed head, if this claim still holds it ($1 its id, $2 the claim's attempts), and up to
     * $3 rows after it in its lane, deleted; a delivery for each subscription that took each event
     * when it was recorded (its span), inserted in event order; and the delivery workers woken once
     * when any was. One statement, so one commit: deliveries exist exactly when the rows are gone.
     * A claim taken over (its lease ran out) deletes no head and so does nothing; a delivery queued
     * already is not queued again (webhook_delivery_once). After a full batch the lane pauses (paced).
     */
    private static final String FAN_OUT = "WITH head AS (DELETE FROM webhook_fanout f WHERE f.id = $1 AND f.attempts = $2 "
            + "RETURNING f.id, f.repository_id), "
            + "rest AS (DELETE FROM webhook_fanout f WHERE f.id IN (SELECT n.id FROM webhook_fanout n JOIN head h "
            + "ON n.repository_id = h.repository_id AND n.id > h.id ORDER BY n.id LIMIT $3 FOR UPDATE OF n) RETURNING f.id), "
            + "taken AS (SELECT id FROM head UNION ALL SELECT id FROM rest), "
            + "queued AS (INSERT INTO webhook_delivery (subscription_id, lane, event_id) "
            + "SELECT s.id, e.repository_id, e.id FROM taken t JOIN data_event e ON e.id = t.id "
            + "JOIN repository r ON r.id = e.repository_id "
            + "JOIN webhook_subscription s ON s.namespace = r.namespace AND (s.repository IS NULL OR s.repository = r.name) "
            + "JOIN webhook_subscription_span p ON p.subscription_id = s.id AND p.after_event < e.id "
            + "AND (p.until_event IS NULL OR e.id <= p.until_event) AND e.kind = ANY (p.kinds) "
            + "ORDER BY e.id, s.id ON CONFLICT (event_id, subscription_id) DO NOTHING RETURNING 1), "
            // A full batch: more wait (a backlog). The lane's next row waits as long as this statement took, so that a
            // repository's backlog takes at most half of one connection's time, and the appends making it the rest.
            + "paced AS (UPDATE webhook_fanout f SET next_attempt_at = now() + (clock_timestamp() - now()) "
            + "WHERE (SELECT count(*) FROM taken) > $3 AND f.id = (SELECT min(n.id) FROM webhook_fanout n JOIN head h "
            + "ON n.repository_id = h.repository_id WHERE n.id > (SELECT max(id) FROM taken))), "
            + "woken AS (SELECT pg_notify('" + QueueTable.of(WebhookDeliveryRepository.QUEUE, "webhook_delivery", "true").build().channel() + "', '') AS sent "
            + "WHERE EXISTS (SELECT 1 FROM queued)) "
            + "SELECT (SELECT count(*) FROM taken) AS events, (SELECT count(*) FROM queued) AS deliveries, "
            + "(SELECT count(*) FROM woken) AS woken";

    private final Pool pool;

    WebhookFanoutRepository(Pool pool) {
        this.pool = pool;
    }

    /** What one fan-out did: events fanned out (0: the claim had been taken over), deliveries queued. */
    public record Fanned(long events, long deliveries) {
    }

    /** The claimed row's event and up to {@code more} after it in its repository, fanned out. */
    public Uni<Fanned> fanOut(QueueRepository.Claimed head, int more) {
        return pool.preparedQuery(FAN_OUT).execute(Tuple.of(head.id(), head.attempts(), more)).map(rows -> {
            Row row = rows.iterator().next();
            return new Fanned(row.getLong("events"), row.getLong("deliveries"));
        });
    }
}
