package org.ziggurat.events.webhooks;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.events.audit.AuditRepository;
import org.ziggurat.events.data.EventRepository;
import org.ziggurat.platform.rest.queue.QueueRepository;
import org.ziggurat.platform.rest.queue.QueueTable;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * The delivery outbox in hand-written SQL (the hot path). A data event's deliveries are queued
 * from its repository's log, a few per lane at a time ({@link WebhookFanoutRepository}), an audit
 * event's by the statement that records it (AuditRepository). A lane is one subscription's
 * deliveries of one repository; the queue ({@link #deliveries}) hands out only its oldest pending
 * delivery (its head), so a receiver gets a repository's events in order, and a head being retried
 * holds the rest back. Each attempt's end is recorded with its log, in one statement that matches
 * nothing once another replica has taken the delivery over (its lease ran out).
 */
@ApplicationScoped
public class WebhookDeliveryRepository {

    static final String QUEUE = "events_webhooks";

    /**
     * The deliveries as a queue: pending ones are owed, in lanes of a subscription and a repository,
     * claimed only while their subscription is active, each claim returned with its subscription and
     * event, and whether an end of its creator's way to act came after they took it on or within
     * {@code endedAccessGrace} before (EndedAccessRepository's question, asked in the claim); finished
     * ones stay as the log until purged, and so do those a disabled subscription queued that long ago.
     */
    static QueueTable deliveries(Duration endedAccessGrace) {
        return QueueTable.of(QUEUE, "webhook_delivery", "q.state = 'pending'").error(null)
            .lanes(List.of("subscription_id", "lane"), "id")
            .claimable("EXISTS (SELECT 1 FROM webhook_subscription s WHERE s.id = q.subscription_id AND s.state = 'active')")
            .onClaim("first_attempt_at = coalesce(q.first_attempt_at, now())")
            .purgeable("q.finished_at < {cutoff} OR (q.state = 'pending' AND q.created_at < {cutoff} AND q.subscription_id IN "
                    + "(SELECT id FROM webhook_subscription WHERE state = 'disabled'))")
            .view("c.subscription_id, c.first_attempt_at, s.target_url, s.secret_sealed, s.previous_secret_sealed, "
                    + "s.previous_secret_until, s.api_base, s.creator_id, s.creator_client_id, s.namespace AS subscription_namespace, "
                    + EndedAccessRepository.endedSinceTakenOn("s", endedAccessGrace) + " AS creator_access_ended, "
                    + "r.namespace, r.name AS repository, " + EventRepository.EventRow.COLUMNS + ", " + AuditRepository.AuditRow.COLUMNS
                    + " FROM claimed c JOIN webhook_subscription s ON s.id = c.subscription_id LEFT JOIN data_event e ON e.id = c.event_id "
                    + "LEFT JOIN repository r ON r.id = e.repository_id LEFT JOIN audit_event a ON a.id = c.audit_event_id")
            .build();
    }

    /**
     * A delivery claimed for an attempt, with what its request is made of: a data event, or an audit
     * event; and who answers for its subscription ({@code creatorId}, with {@code creatorClientId},
     * in {@code subscriptionNamespace}: null for the audit stream), whose rights are checked first.
     */
    public record Claimed(long id, long subscriptionId, int attempts, OffsetDateTime firstAttemptAt, String targetUrl,
            byte[] secretSealed, byte[] previousSecretSealed, OffsetDateTime previousSecretUntil, String apiBase,
            String namespace, String repository, EventRepository.EventRow event, AuditRepository.AuditRow audit,
            long creatorId, String creatorClientId, String subscriptionNamespace, boolean creatorAccessEnded) {

        static Claimed from(QueueRepository.Claimed claimed) {
            Row r = claimed.row();
            return new Claimed(claimed.id(), r.getLong("subscription_id"), claimed.attempts(), r.getOffsetDateTime("first_attempt_at"),
                    r.getString("target_url"), bytes(r, "secret_sealed"), bytes(r, "previous_secret_sealed"),
                    r.getOffsetDateTime("previous_secret_until"), r.getString("api_base"), r.getString("namespace"),
                    r.getString("repository"), r.getLong("id") == null ? null : EventRepository.EventRow.from(r),
                    r.getLong("audit_id") == null ? null : AuditRepository.AuditRow.from(r), r.getLong("creator_id"),
                    r.getString("creator_client_id"), r.getString("subscription_namespace"), r.getBoolean("creator_access_ended"));
        }
    }

    /** The attempt's record and the delivery's new state, in one statement; nothing if another replica took it over. */
    private static final String RECORD_ATTEMPT = "WITH d AS (UPDATE webhook_delivery SET state = $7, last_status = $4, "
            + "next_attempt_at = now() + $8 * interval '1 millisecond', "
            + "finished_at = CASE WHEN $7 = 'pending' THEN NULL ELSE now() END WHERE id = $1 AND attempts = $2 "
            + "AND state = 'pending' RETURNING id) "
            + "INSERT INTO webhook_attempt (delivery_id, attempted_at, duration_ms, status, error, answer) "
            + "SELECT d.id, $3, $9, $4, $5, $6 FROM d";

    private final Pool pool;

    WebhookDeliveryRepository(Pool pool) {
        this.pool = pool;
    }

    private static byte[] bytes(Row row, String column) {
        return row.getBuffer(column) == null ? null : row.getBuffer(column).getBytes();
    }

    /** What one attempt came to. {@code status} null: no answer ({@code error} says why). */
    public record Outcome(OffsetDateTime at, int durationMs, Integer status, String error, String answer) {
        public boolean accepted() {
            return status != null && status >= 200 && status < 300;
        }
    }

    /** Delivered: the lane's next delivery becomes its head; the lane gets its next from the log in the same transaction. */
    public Uni<Boolean> delivered(Claimed delivery, Outcome outcome) {
        return pool.withTransaction(conn -> conn.preparedQuery(RECORD_ATTEMPT).execute(attempt(delivery, outcome, "delivered",
                Duration.ZERO)).chain(rows -> rows.rowCount() == 0 ? Uni.createFrom().item(false)
                        : WebhookFanoutRepository.fillLaneOf(conn, delivery.id()).replaceWith(true)));
    }

    /** Failed this time: tried again after {@code retryIn}. */
    public Uni<Boolean> retry(Claimed delivery, Outcome outcome, Duration retryIn) {
        return record(delivery, outcome, "pending", retryIn);
    }

    /**
     * Failed for the whole retry period: the delivery fails and its subscription is disabled, with
     * a mail to the namespace's admins owed ({@link OwnerNotices}), in one transaction.
     */
    public Uni<Boolean> givenUp(Claimed delivery, Outcome outcome, String reason) {
        return pool.withTransaction(conn -> conn.preparedQuery(RECORD_ATTEMPT).execute(attempt(delivery, outcome, "failed",
                        Duration.ZERO))
                .chain(rows -> rows.rowCount() == 0 ? Uni.createFrom().item(false)
                        : conn.preparedQuery("UPDATE webhook_subscription SET state = 'disabled', disabled_reason = $2, "
                                        + "disabled_cause = 'failing', "
                                        + "notice_due_at = now(), updated_at = date_trunc('milliseconds', now()) "
                                        + "WHERE id = $1 AND state = 'active'")
                                .execute(Tuple.of(delivery.subscriptionId(), reason)).replaceWith(true)));
    }

    /**
     * Its creator lost the rights that made it: nothing is sent; the delivery is put back as it was
     * before its claim (due, its attempt not counted), the subscription disabled with the reason
     * (its namespace's admins owed a notice, {@link OwnerNotices}; the audit stream has none) and
     * the change recorded in the audit stream, in one transaction. False when another replica had
     * taken the delivery over, or the subscription was no longer active.
     */
    public Uni<Boolean> creatorLostRights(Claimed delivery, String reason) {
        return pool.withTransaction(conn -> conn.preparedQuery("UPDATE webhook_delivery SET attempts = attempts - 1, "
                        + "next_attempt_at = now(), first_attempt_at = CASE WHEN attempts = 1 THEN NULL ELSE first_attempt_at END "
                        + "WHERE id = $1 AND attempts = $2 AND state = 'pending'")
                .execute(Tuple.of(delivery.id(), delivery.attempts()))
                .chain(released -> released.rowCount() == 0 ? Uni.createFrom().item(false)
                        : conn.preparedQuery("UPDATE webhook_subscription SET state = 'disabled', disabled_reason = $2, "
                                        + "disabled_cause = 'creator', notice_due_at = CASE WHEN namespace IS NULL THEN NULL "
                                        + "ELSE now() END, updated_at = date_trunc('milliseconds', now()) "
                                        + "WHERE id = $1 AND state = 'active' "
                                        + "RETURNING id, stream, namespace, repository, target_url, kinds, state, creator_id")
                                .execute(Tuple.of(delivery.subscriptionId(), reason))
                                .chain(rows -> {
                                    if (rows.rowCount() == 0) {
                                        return Uni.createFrom().item(false);
                                    }
                                    Row s = rows.iterator().next();
                                    return AuditRepository.recordOwn(conn, "webhook.disabled", "webhook/" + s.getLong("id"), null,
                                            new io.vertx.core.json.JsonObject().put("webhook_id", s.getLong("id"))
                                                    .put("stream", s.getString("stream")).put("namespace", s.getString("namespace"))
                                                    .put("repository", s.getString("repository"))
                                                    .put("target_url", s.getString("target_url"))
                                                    .put("events", java.util.Arrays.asList(s.getArrayOfStrings("kinds")))
                                                    .put("state", s.getString("state")).put("creator_id", s.getLong("creator_id"))
                                                    .put("reason", reason))
                                            .replaceWith(true);
                                })));
    }

    private Uni<Boolean> record(Claimed delivery, Outcome outcome, String state, Duration retryIn) {
        return pool.preparedQuery(RECORD_ATTEMPT).execute(attempt(delivery, outcome, state, retryIn))
                .map(rows -> rows.rowCount() == 1);
    }

    private static Tuple attempt(Claimed delivery, Outcome outcome, String state, Duration retryIn) {
        return Tuple.tuple().addValue(delivery.id()).addValue(delivery.attempts()).addValue(outcome.at())
                .addValue(outcome.status()).addValue(outcome.error()).addValue(outcome.answer()).addValue(state)
                .addValue(retryIn.toMillis()).addValue(outcome.durationMs());
    }

    /** A delivery as the log shows it, with its attempts (all of them, or only the last). */
    public record LoggedDelivery(long id, long eventId, String repository, String kind, String state, int attempts,
            Integer lastStatus, OffsetDateTime createdAt, OffsetDateTime nextAttemptAt, OffsetDateTime finishedAt,
            List<LoggedAttempt> attemptLog) {
    }

    public record LoggedAttempt(long id, OffsetDateTime attemptedAt, int durationMs, Integer status, String error,
            String answer) {
    }

    private static final String LOGGED = "SELECT d.id, coalesce(d.event_id, a.id) AS event_id, r.name AS repository, "
            + "coalesce(e.kind, a.type) AS kind, d.state, d.attempts, d.last_status, d.created_at, d.next_attempt_at, "
            + "d.finished_at FROM webhook_delivery d LEFT JOIN data_event e ON e.id = d.event_id "
            + "LEFT JOIN repository r ON r.id = e.repository_id LEFT JOIN audit_event a ON a.id = d.audit_event_id ";

    /** Newest first, one more than asked (whether another page follows), each with its last attempt. */
    public Uni<List<LoggedDelivery>> log(long subscriptionId, String state, int limit, long offset) {
        String sql = LOGGED + "WHERE d.subscription_id = $1" + (state == null ? "" : " AND d.state = $4")
                + " ORDER BY d.id DESC LIMIT $2 OFFSET $3";
        Tuple args = Tuple.of(subscriptionId, limit, offset);
        if (state != null) {
            args.addValue(state);
        }
        return pool.preparedQuery(sql).execute(args).chain(rows -> {
            List<Long> ids = new ArrayList<>();
            rows.forEach(r -> ids.add(r.getLong("id")));
            return pool.preparedQuery("SELECT DISTINCT ON (delivery_id) * FROM webhook_attempt WHERE delivery_id = ANY($1) "
                            + "ORDER BY delivery_id, id DESC").execute(Tuple.of(ids.toArray(Long[]::new)))
                    .map(attempts -> deliveries(rows, attempts));
        });
    }

    /** One delivery of the subscription with every attempt, or null. */
    public Uni<LoggedDelivery> one(long subscriptionId, long deliveryId) {
        return pool.preparedQuery(LOGGED + "WHERE d.subscription_id = $1 AND d.id = $2").execute(Tuple.of(subscriptionId, deliveryId))
                .chain(rows -> rows.rowCount() == 0 ? Uni.createFrom().nullItem()
                        : pool.preparedQuery("SELECT * FROM webhook_attempt WHERE delivery_id = $1 ORDER BY id")
                                .execute(Tuple.of(deliveryId)).map(attempts -> deliveries(rows, attempts).get(0)));
    }

    private static List<LoggedDelivery> deliveries(RowSet<Row> rows, RowSet<Row> attemptRows) {
        java.util.Map<Long, List<LoggedAttempt>> byDelivery = new java.util.HashMap<>();
        for (Row a : attemptRows) {
            byDelivery.computeIfAbsent(a.getLong("delivery_id"), k -> new ArrayList<>()).add(new LoggedAttempt(a.getLong("id"),
                    a.getOffsetDateTime("attempted_at"), a.getInteger("duration_ms"), a.getInteger("status"),
                    a.getString("error"), a.getString("answer")));
        }
        List<LoggedDelivery> list = new ArrayList<>();
        for (Row r : rows) {
            list.add(new LoggedDelivery(r.getLong("id"), r.getLong("event_id"), r.getString("repository"), r.getString("kind"),
                    r.getString("state"), r.getInteger("attempts"), r.getInteger("last_status"), r.getOffsetDateTime("created_at"),
                    "pending".equals(r.getString("state")) ? r.getOffsetDateTime("next_attempt_at") : null,
                    r.getOffsetDateTime("finished_at"), byDelivery.getOrDefault(r.getLong("id"), List.of())));
        }
        return list;
    }

    /**
     * Queued again, due now, its retry period started again, under its first {@code webhook-id}.
     * False when it is pending already (queued or under way: sending it again now would send it twice).
     */
    public Uni<Boolean> redeliver(long subscriptionId, long deliveryId) {
        return pool.preparedQuery("UPDATE webhook_delivery SET state = 'pending', next_attempt_at = now(), "
                        + "first_attempt_at = NULL, finished_at = NULL WHERE subscription_id = $1 AND id = $2 AND state <> 'pending'")
                .execute(Tuple.of(subscriptionId, deliveryId)).map(rows -> rows.rowCount() == 1);
    }

    /** Every failed delivery of the subscription queued since {@code since}, queued again; how many. */
    public Uni<Integer> redeliverFailed(long subscriptionId, OffsetDateTime since) {
        return pool.preparedQuery("UPDATE webhook_delivery SET state = 'pending', next_attempt_at = now(), "
                        + "first_attempt_at = NULL, finished_at = NULL WHERE subscription_id = $1 AND state = 'failed' "
                        + "AND created_at >= $2")
                .execute(Tuple.of(subscriptionId, since)).map(RowSet::rowCount);
    }
}
