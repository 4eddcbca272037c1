package org.ziggurat.directory.mail;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The outbox table's enqueues. A mail joins it inside the transaction of its change, so that a
 * change is never without its mail nor a mail without its change; the table's trigger (V19) wakes
 * the mail workers in that transaction, and {@link MailWorker} sends it.
 */
public final class MailOutboxRepository {

    private MailOutboxRepository() {
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
}
