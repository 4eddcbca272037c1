package org.ziggurat.directory.people;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.directory.mail.AccountMails;
import org.ziggurat.directory.mail.MailOutboxRepository;
import org.ziggurat.directory.mail.SecurityNotices;
import org.ziggurat.platform.data.ValueTaken;
import org.ziggurat.directory.DirectoryConfig;
import org.ziggurat.directory.RetryLater;
import org.ziggurat.directory.WindowCounts;

import java.util.Locale;

/**
 * A person's sign-in address: changing it (unverified until the new address's link is followed;
 * the public address, which must be the verified one, is cleared; the old address is told), and a
 * new verification link for an address not yet proven. Each in one transaction with its mail, and
 * its count: mails with a link are limited per person and per address.
 */
@ApplicationScoped
public class EmailAddressRepository {

    private final Pool pool;
    private final DirectoryConfig.AddressMails limits;

    EmailAddressRepository(Pool pool, DirectoryConfig config) {
        this.pool = pool;
        this.limits = config.addressMails();
    }

    /**
     * One more mail with a link for the person and to the address, counted in the transaction that
     * queues it (every replica sees the counts, and a refusal rolls the count back with the
     * change): {@link RetryLater} past {@code per-person} or {@code per-address} within the window.
     */
    private Uni<Void> countMail(SqlConnection conn, long personId, String address) {
        return WindowCounts.admit(conn, "address-mails-person:" + personId, limits.perPerson(), limits.window())
                .chain(personWait -> WindowCounts.admit(conn, "address-mails-address:" + address.toLowerCase(Locale.ROOT),
                                limits.perAddress(), limits.window())
                        .map(addressWait -> Math.max(personWait, addressWait)))
                .invoke(wait -> {
                    if (wait > 0) {
                        throw new RetryLater("Too many mails with a link for this person or to this address. Try again in "
                                + wait + " seconds.", wait);
                    }
                })
                .replaceWithVoid();
    }

    /** Who changed: the person's name and the address before. */
    public record Holder(String username, String previousEmail) {
    }

    /** The mails of a change, made once the holder is known: the new address's link, the old address's notice. */
    public interface ChangeMails {
        SecurityNotices.Notice verification(Holder holder);

        SecurityNotices.Notice notice(Holder holder);
    }

    /**
     * Sets a new sign-in address. Null when no such person; the holder with the same address
     * before when nothing changed (no mail). Fails with {@link ValueTaken} when another account has it,
     * {@link RetryLater} past the limits of mails with a link.
     */
    public Uni<Holder> change(long personId, String email, byte[] tokenHash, String clientAddress, ChangeMails mails) {
        return pool.withTransaction(conn -> conn.preparedQuery("SELECT username, email FROM person WHERE id = $1 FOR UPDATE")
                .execute(Tuple.of(personId))
                .chain(rows -> {
                    if (rows.rowCount() == 0) {
                        return Uni.createFrom().<Holder>nullItem();
                    }
                    Row row = rows.iterator().next();
                    Holder holder = new Holder(row.getString("username"), row.getString("email"));
                    if (holder.previousEmail().equalsIgnoreCase(email)) {
                        return Uni.createFrom().item(holder);
                    }
                    SecurityNotices.Notice verification = mails.verification(holder);
                    SecurityNotices.Notice notice = mails.notice(holder);
                    return countMail(conn, personId, email)
                            .chain(() -> conn.preparedQuery("UPDATE person SET email = $2, email_verified_at = NULL, "
                                    // The proof was of the old address: a recovery through the new one, unproven,
                                    // is a first recovery again (it removes the ways in set up before it).
                                    + "address_proven = false, public_email = NULL, updated_at = now() WHERE id = $1").execute(Tuple.of(personId, email)))
                            .chain(() -> proof(conn, personId, email, tokenHash, verification))
                            .chain(() -> conn.preparedQuery("INSERT INTO account_event (person_id, kind, client_address, detail) "
                                    + "VALUES ($1, 'email_changed', $2, $3)").execute(Tuple.of(personId, clientAddress, email)))
                            .chain(() -> MailOutboxRepository.enqueue(conn, personId, "email_changed", holder.previousEmail(),
                                    notice.subject(), notice.body()))
                            .replaceWith(holder);
                }))
                .onFailure(PgException.class).transform(failure -> "23505".equals(((PgException) failure).getSqlState())
                        ? new ValueTaken("An account with this email address exists already.") : failure);
    }

    /**
     * A new link for the person's address while it is not verified: the mail {@code verification}
     * makes from the holder. Null when no such person or the address is verified already;
     * {@link RetryLater} past the limits of mails with a link.
     */
    public Uni<Holder> resend(long personId, byte[] tokenHash, java.util.function.Function<Holder, SecurityNotices.Notice> verification) {
        return pool.withTransaction(conn -> conn.preparedQuery("SELECT username, email FROM person WHERE id = $1 "
                        + "AND email_verified_at IS NULL FOR UPDATE").execute(Tuple.of(personId))
                .chain(rows -> {
                    if (rows.rowCount() == 0) {
                        return Uni.createFrom().<Holder>nullItem();
                    }
                    Row row = rows.iterator().next();
                    Holder holder = new Holder(row.getString("username"), row.getString("email"));
                    return countMail(conn, personId, holder.previousEmail())
                            .chain(() -> proof(conn, personId, holder.previousEmail(), tokenHash, verification.apply(holder)))
                            .replaceWith(holder);
                }));
    }

    private static Uni<Void> proof(SqlConnection conn, long personId, String email, byte[] tokenHash,
            SecurityNotices.Notice mail) {
        return conn.preparedQuery("INSERT INTO email_verification (token_hash, person_id, email, expires_at) "
                        + "VALUES ($1, $2, $3, now() + interval '24 hours')")
                .execute(Tuple.of(Buffer.buffer(tokenHash), personId, email))
                .chain(() -> MailOutboxRepository.enqueue(conn, personId, AccountMails.EMAIL_VERIFICATION, email,
                        mail.subject(), mail.body()));
    }
}
