package org.ziggurat.directory.mail;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The outbox table. A mail joins it inside the transaction of its change ({@link #enqueue}); the
 * worker claims due mails in one statement (FOR UPDATE SKIP LOCKED: two replicas never claim one
 * mail) that also moves their next attempt past a lease, so that a replica that dies while sending
 * leaves them to another; then records each one sent, or failed with when to try again.
 */
@ApplicationScoped
public class MailOutboxRepository {

    /** A claimed mail, as the worker sends it. */
    public record Claimed(long id, String kind, String recipient, String subject, String body, int attempts) {
    }

    private final Pool pool;

    MailOutboxRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * A mail to the person's sign-in address, in the caller's Panache transaction: it commits with
     * the change it tells of, or neither does. Nothing when the person is gone.
     */
    public static Uni<Void> enqueue(long personId, String kind, String subject, String body) {
        return Panache.getSession().chain(session -> session.createNativeQuery(
                        "INSERT INTO mail_outbox (person_id, kind, recipient, subject, body) "
                                + "SELECT id, ?2, email, ?3, ?4 FROM person WHERE id = ?1")
                .setParameter(1, personId).setParameter(2, kind).setParameter(3, subject).setParameter(4, body)
                .executeUpdate()).replaceWithVoid();
    }

    /**
     * The same in a transaction of hand-written SQL ({@code transaction}: its connection), to an
     * address given (one being proved, which may not be the person's yet).
     */
    public static Uni<Void> enqueue(SqlClient transaction, long personId, String kind, String recipient, String subject,
            String body) {
        return transaction.preparedQuery("INSERT INTO mail_outbox (person_id, kind, recipient, subject, body) "
                        + "VALUES ($1, $2, $3, $4, $5)")
                .execute(Tuple.of(personId, kind, recipient, subject, body)).replaceWithVoid();
    }

    /** Up to {@code limit} due mails, oldest first, each held for {@code lease}. */
    public Uni<List<Claimed>> claim(int limit, Duration lease) {
        return pool.preparedQuery("UPDATE mail_outbox SET attempts = attempts + 1, "
                        + "next_attempt_at = now() + $2 * interval '1 millisecond' "
                        + "WHERE id IN (SELECT id FROM mail_outbox WHERE sent_at IS NULL AND next_attempt_at <= now() "
                        + "ORDER BY next_attempt_at, id LIMIT $1 FOR UPDATE SKIP LOCKED) "
                        + "RETURNING id, kind, recipient, subject, body, attempts")
                .execute(Tuple.of(limit, lease.toMillis()))
                .map(rows -> {
                    List<Claimed> claimed = new ArrayList<>(rows.rowCount());
                    for (Row row : rows) {
                        claimed.add(new Claimed(row.getLong("id"), row.getString("kind"), row.getString("recipient"),
                                row.getString("subject"), row.getString("body"), row.getInteger("attempts")));
                    }
                    return claimed;
                });
    }

    public Uni<Void> sent(long id) {
        return pool.preparedQuery("UPDATE mail_outbox SET sent_at = now(), last_error = NULL WHERE id = $1")
                .execute(Tuple.of(id)).replaceWithVoid();
    }

    /** Not sent this time: tried again after {@code retryIn}, with what went wrong kept for support. */
    public Uni<Void> failed(long id, String error, Duration retryIn) {
        return pool.preparedQuery("UPDATE mail_outbox SET next_attempt_at = now() + $2 * interval '1 millisecond', "
                        + "last_error = $3 WHERE id = $1 AND sent_at IS NULL")
                .execute(Tuple.of(id, retryIn.toMillis(), error)).replaceWithVoid();
    }

    /** Removes mail sent before {@code keep} ago; how many. */
    public Uni<Integer> purgeSent(Duration keep) {
        return pool.preparedQuery("DELETE FROM mail_outbox WHERE sent_at < $1")
                .execute(Tuple.of(OffsetDateTime.now(ZoneOffset.UTC).minus(keep))).map(rows -> rows.rowCount());
    }
}
