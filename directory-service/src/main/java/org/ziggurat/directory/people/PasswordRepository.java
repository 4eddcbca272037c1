package org.ziggurat.directory.people;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.directory.mail.AccountMails;
import org.ziggurat.directory.mail.MailOutboxRepository;

import java.util.ArrayList;
import java.util.List;

/**
 * A person's password in Postgres: who may recover an account, its recovery links, and the new
 * password set with one (the first recovery of an account nobody had proven removes every way in
 * set up before it) or asked for on the account page; each change recorded and mailed in its
 * transaction.
 */
@ApplicationScoped
public class PasswordRepository {

    private final Pool pool;

    PasswordRepository(Pool pool) {
        this.pool = pool;
    }

    public Uni<PeopleRepository.Recoverable> recoverable(String login) {
        String where = login.contains("@") ? "lower(email) = lower($1)" : "username = $1";
        return pool.preparedQuery("SELECT id, username, email FROM person WHERE " + where)
                .execute(Tuple.of(login.contains("@") ? login : Names.key(login)))
                .map(rows -> rows.rowCount() == 0 ? null : new PeopleRepository.Recoverable(rows.iterator().next().getLong("id"),
                        rows.iterator().next().getString("username"), rows.iterator().next().getString("email")));
    }

    /** A recovery link for the person (its token's hash, 30 minutes) and its mail, in one transaction. */
    public Uni<Void> insertRecovery(PeopleRepository.Recoverable person, byte[] tokenHash, String clientAddress, String subject, String body) {
        return pool.withTransaction(conn -> conn.preparedQuery("INSERT INTO password_recovery (token_hash, person_id, "
                        + "expires_at, client_address) VALUES ($1, $2, now() + interval '30 minutes', $3)")
                .execute(Tuple.of(Buffer.buffer(tokenHash), person.id(), clientAddress))
                .chain(() -> MailOutboxRepository.enqueue(conn, person.id(), AccountMails.PASSWORD_RECOVERY, person.email(),
                        subject, body)));
    }

    /**
     * Whether a recovery link's token is live and unused, asked before its new password is hashed,
     * so that a link that is no good costs no hash ({@link #resetPassword} asks again in its transaction).
     */
    public Uni<Boolean> recoveryLive(byte[] tokenHash) {
        return pool.preparedQuery("SELECT 1 FROM password_recovery WHERE token_hash = $1 AND used_at IS NULL "
                        + "AND expires_at > now()")
                .execute(Tuple.of(Buffer.buffer(tokenHash))).map(rows -> rows.rowCount() > 0);
    }

    /**
     * Sets the password with a recovery link's token, if it is live and unused: the token and every
     * other live one of the person are used, the change recorded and mailed, in one transaction.
     * The person (null when the token is no good).
     */
    public Uni<PeopleRepository.Recoverable> resetPassword(byte[] tokenHash, String passwordHash, String clientAddress,
            java.util.function.Function<PeopleRepository.Recoverable, PeopleRepository.Notice> notice) {
        return resetPassword(tokenHash, passwordHash, clientAddress, notice, null);
    }

    /**
     * The same; and when the account's owner never proved an address of it before (no confirmed
     * address, no recovery link used: everything in it was set up by someone who proved nothing, as
     * one who signs up with another's address), this link is the first proof, and every way in that
     * predates it goes in the same transaction: second factors, passkeys, recovery codes and linked
     * identities, recorded as one account event and mailed ({@code removed}: the notice of what went).
     */
    public Uni<PeopleRepository.Recoverable> resetPassword(byte[] tokenHash, String passwordHash, String clientAddress,
            java.util.function.Function<PeopleRepository.Recoverable, PeopleRepository.Notice> notice,
            java.util.function.BiFunction<PeopleRepository.Recoverable, String, PeopleRepository.Notice> removed) {
        return pool.withTransaction(conn -> conn.preparedQuery("UPDATE password_recovery SET used_at = now() "
                        + "WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING person_id")
                .execute(Tuple.of(Buffer.buffer(tokenHash)))
                .chain(used -> used.rowCount() == 0 ? Uni.createFrom().<PeopleRepository.Recoverable>nullItem()
                        : conn.preparedQuery("UPDATE person p SET password_hash = $2, password_changed_at = now(), "
                                        + "updated_at = now(), address_proven = true FROM (SELECT id, address_proven FROM person "
                                        + "WHERE id = $1 FOR UPDATE) before WHERE p.id = before.id "
                                        + "RETURNING p.id, p.username, p.email, before.address_proven AS was_proven")
                                .execute(Tuple.of(used.iterator().next().getLong("person_id"), passwordHash))
                                .chain(rows -> {
                                    Row row = rows.iterator().next();
                                    PeopleRepository.Recoverable person = new PeopleRepository.Recoverable(row.getLong("id"), row.getString("username"),
                                            row.getString("email"));
                                    return conn.preparedQuery("UPDATE password_recovery SET used_at = now() "
                                                    + "WHERE person_id = $1 AND used_at IS NULL").execute(Tuple.of(person.id()))
                                            .chain(() -> recorded(conn, person, notice.apply(person), clientAddress))
                                            .chain(() -> row.getBoolean("was_proven") ? Uni.createFrom().voidItem()
                                                    : removeUnproven(conn, person, clientAddress, removed))
                                            .replaceWith(person);
                                })));
    }

    /** Every way into the account but the new password: the account's owner had never proven it theirs. */
    private static Uni<Void> removeUnproven(SqlConnection conn, PeopleRepository.Recoverable person, String clientAddress,
            java.util.function.BiFunction<PeopleRepository.Recoverable, String, PeopleRepository.Notice> removed) {
        return conn.preparedQuery("WITH passkeys AS (DELETE FROM passkey WHERE person_id = $1 RETURNING 1), "
                        + "totp AS (DELETE FROM totp_factor WHERE person_id = $1 AND confirmed_at IS NOT NULL RETURNING 1), "
                        + "pending AS (DELETE FROM totp_factor WHERE person_id = $1 AND confirmed_at IS NULL RETURNING 1), "
                        + "codes AS (DELETE FROM recovery_code WHERE person_id = $1 RETURNING 1), "
                        + "links AS (DELETE FROM linked_identity WHERE person_id = $1 "
                        + "RETURNING provider || ': ' || coalesce(display_name, subject) AS name) "
                        + "SELECT (SELECT count(*) FROM passkeys) AS passkeys, (SELECT count(*) FROM totp) AS totp, "
                        + "(SELECT count(*) FROM pending) AS pending, (SELECT count(*) FROM codes) AS codes, "
                        + "(SELECT string_agg(name, ', ') FROM links) AS links, (SELECT count(*) FROM links) AS link_count")
                .execute(Tuple.of(person.id()))
                .chain(rows -> {
                    Row row = rows.iterator().next();
                    List<String> what = new ArrayList<>();
                    if (row.getLong("totp") > 0) {
                        what.add("the authenticator app");
                    }
                    if (row.getLong("passkeys") > 0) {
                        what.add(row.getLong("passkeys") + " passkey(s)");
                    }
                    if (row.getLong("codes") > 0) {
                        what.add("the recovery codes");
                    }
                    if (row.getLong("link_count") > 0) {
                        what.add("linked accounts (" + row.getString("links") + ")");
                    }
                    // Always said: events-service stops the webhooks its maker set up (it follows this event).
                    what.add("the webhooks made before (stopped until an admin makes them active again)");
                    String detail = String.join("; ", what);
                    detail = detail.length() <= 200 ? detail : detail.substring(0, 200);
                    Uni<Void> event = conn.preparedQuery("INSERT INTO account_event (person_id, kind, client_address, detail) "
                                    + "VALUES ($1, $2, $3, $4)")
                            .execute(Tuple.of(person.id(), UNPROVEN_ACCESS_REMOVED, clientAddress, detail)).replaceWithVoid();
                    if (removed == null) {
                        return event;
                    }
                    PeopleRepository.Notice n = removed.apply(person, detail);
                    return event.chain(() -> MailOutboxRepository.enqueue(conn, person.id(), n.kind(), person.email(),
                            n.subject(), n.body()));
                });
    }

    /** The account event of what a first recovery link removed (AccountEvents names it too). */
    public static final String UNPROVEN_ACCESS_REMOVED = "unproven_access_removed";

    /**
     * Sets the person's password (a change they asked for on their account page, after the current
     * one), records and mails it, and ends their live recovery links, in one transaction; null when
     * there is no such person.
     */
    public Uni<PeopleRepository.Recoverable> changePassword(long personId, String passwordHash, String clientAddress,
            java.util.function.Function<PeopleRepository.Recoverable, PeopleRepository.Notice> notice) {
        return changePassword(personId, passwordHash, clientAddress, notice, (conn, person) -> Uni.createFrom().voidItem());
    }

    /** As above, with {@code alsoThen} in the same transaction (a sign-out owed to auth-service). */
    public Uni<PeopleRepository.Recoverable> changePassword(long personId, String passwordHash, String clientAddress,
            java.util.function.Function<PeopleRepository.Recoverable, PeopleRepository.Notice> notice,
            java.util.function.BiFunction<io.vertx.mutiny.sqlclient.SqlConnection, PeopleRepository.Recoverable, Uni<Void>> alsoThen) {
        return pool.withTransaction(conn -> conn.preparedQuery("UPDATE person SET password_hash = $2, "
                        + "password_changed_at = now(), updated_at = now() WHERE id = $1 RETURNING id, username, email")
                .execute(Tuple.of(personId, passwordHash))
                .chain(rows -> {
                    if (rows.rowCount() == 0) {
                        return Uni.createFrom().<PeopleRepository.Recoverable>nullItem();
                    }
                    Row row = rows.iterator().next();
                    PeopleRepository.Recoverable person = new PeopleRepository.Recoverable(row.getLong("id"), row.getString("username"), row.getString("email"));
                    return conn.preparedQuery("UPDATE password_recovery SET used_at = now() WHERE person_id = $1 "
                                    + "AND used_at IS NULL").execute(Tuple.of(personId))
                            .chain(() -> recorded(conn, person, notice.apply(person), clientAddress))
                            .chain(() -> alsoThen.apply(conn, person)).replaceWith(person);
                }));
    }

    /** A change recorded as an account event and its notice queued, in the caller's transaction. */
    private static Uni<Void> recorded(io.vertx.mutiny.sqlclient.SqlConnection conn, PeopleRepository.Recoverable person, PeopleRepository.Notice n,
            String clientAddress) {
        return conn.preparedQuery("INSERT INTO account_event (person_id, kind, client_address) VALUES ($1, $2, $3)")
                .execute(Tuple.of(person.id(), n.kind(), clientAddress))
                .chain(() -> MailOutboxRepository.enqueue(conn, person.id(), n.kind(), person.email(), n.subject(), n.body()));
    }
}
