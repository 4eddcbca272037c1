package org.ziggurat.directory.people;

import io.vertx.core.buffer.Buffer;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.directory.mail.AccountMails;
import org.ziggurat.directory.mail.MailOutboxRepository;
import org.ziggurat.platform.data.ValueTaken;

import java.util.ArrayList;
import java.util.List;

/** People in Postgres, by hand-written prepared statements: every read is one indexed look-up. */
@ApplicationScoped
public class PeopleRepository {

    private final Pool pool;

    PeopleRepository(Pool pool) {
        this.pool = pool;
    }

    public record NewPerson(String username, String displayName, String email, String passwordHash) {
    }

    public record Avatar(byte[] bytes, String type) {
    }

    public Uni<PersonRow> byUsername(String username) {
        return one("SELECT " + PersonRow.COLUMNS + " FROM person WHERE username = $1", Tuple.of(Names.key(username)));
    }

    public Uni<PersonRow> byId(long id) {
        return one("SELECT " + PersonRow.COLUMNS + " FROM person WHERE id = $1", Tuple.of(id));
    }

    /** In sign-up order. */
    public Uni<List<PersonRow>> page(long offset, int limit) {
        return pool.preparedQuery("SELECT " + PersonRow.COLUMNS + " FROM person ORDER BY id LIMIT $1 OFFSET $2")
                .execute(Tuple.of(limit, offset)).map(PeopleRepository::all);
    }

    public Uni<Long> count() {
        return pool.query("SELECT count(*) FROM person").execute().map(rows -> rows.iterator().next().getLong(0));
    }

    /**
     * The proof of an address: the hash of the token mailed to it, and the mail ({@code subject},
     * {@code body}) that carries the token.
     */
    public record EmailProof(byte[] tokenHash, String subject, String body) {
    }

    /**
     * Claims the name as a namespace and creates the person, with the proof of their address and
     * its mail in the outbox, in one transaction; 409 when taken.
     */
    public Uni<PersonRow> insert(NewPerson person, EmailProof proof) {
        return insert(person, proof, (conn, row) -> Uni.createFrom().voidItem());
    }

    /**
     * The same, with {@code alsoInTransaction}'s rows; {@code proof} null when the address is known
     * to be the person's already (a provider that verified it), which is then confirmed.
     */
    public Uni<PersonRow> insert(NewPerson person, EmailProof proof,
            java.util.function.BiFunction<SqlConnection, PersonRow, Uni<Void>> alsoInTransaction) {
        return pool.withTransaction(conn -> conn
                .preparedQuery("INSERT INTO namespace (name_key, kind) VALUES ($1, 'person')")
                .execute(Tuple.of(person.username()))
                .chain(() -> conn.preparedQuery("INSERT INTO person (username, display_name, email, password_hash, "
                                + "email_verified_at) VALUES ($1, $2, $3, $4, CASE WHEN $5 THEN now() END) RETURNING "
                                + PersonRow.COLUMNS)
                        .execute(Tuple.of(person.username(), person.displayName(), person.email(), person.passwordHash(),
                                proof == null)))
                .map(rows -> PersonRow.from(rows.iterator().next()))
                .call(row -> proof == null ? Uni.createFrom().voidItem()
                        : conn.preparedQuery("INSERT INTO email_verification (token_hash, person_id, email, expires_at) "
                                        + "VALUES ($1, $2, $3, now() + interval '24 hours')")
                                .execute(Tuple.of(Buffer.buffer(proof.tokenHash()), row.id(), row.email()))
                                .chain(() -> MailOutboxRepository.enqueue(conn, row.id(), AccountMails.EMAIL_VERIFICATION,
                                        row.email(), proof.subject(), proof.body())))
                .call(row -> alsoInTransaction.apply(conn, row)))
                .onFailure(PgException.class).transform(PeopleRepository::conflict);
    }

    /** Another account has the address (a 409 where that may be said; sign-up does not say it). */
    public static final class AddressTaken extends ValueTaken {
        AddressTaken() {
            super("An account with this email address exists already.");
        }
    }

    /**
     * A sign-up whose address another account has, answered as a new one: the stand-in of the
     * person it would have made (an id of the same sequence, so that ids do not tell either, and
     * the fields given), and, in one transaction, the notice to the address's owner, unless the
     * address had {@code perAddress} of them within {@code window} already (then nothing, silently).
     */
    public Uni<PersonRow> standIn(NewPerson person, java.util.function.Function<Recoverable, Notice> ownerNotice, int perAddress,
            java.time.Duration window) {
        return pool.withTransaction(conn -> conn.preparedQuery("SELECT id, username, email FROM person WHERE lower(email) = lower($1)")
                .execute(Tuple.of(person.email()))
                .chain(owners -> {
                    if (owners.rowCount() == 0) {
                        return Uni.createFrom().voidItem();
                    }
                    Row row = owners.iterator().next();
                    Recoverable owner = new Recoverable(row.getLong("id"), row.getString("username"), row.getString("email"));
                    return org.ziggurat.directory.WindowCounts.admit(conn, "sign-up-notice:" + owner.email().toLowerCase(
                                    java.util.Locale.ROOT), perAddress, window)
                            .chain(over -> {
                                if (over > 0) {
                                    return Uni.createFrom().voidItem();
                                }
                                Notice notice = ownerNotice.apply(owner);
                                return MailOutboxRepository.enqueue(conn, owner.id(), notice.kind(), owner.email(),
                                        notice.subject(), notice.body());
                            });
                })
                .chain(() -> conn.query("SELECT nextval(pg_get_serial_sequence('person', 'id')) AS id, now() AS at").execute())
                .map(rows -> {
                    Row row = rows.iterator().next();
                    java.time.Instant at = row.getOffsetDateTime("at").toInstant();
                    return new PersonRow(row.getLong("id"), person.username(), person.displayName(), person.email(), null,
                            false, false, at, at, false);
                }));
    }

    /** Someone who may recover an account: by username or sign-in address. */
    @io.quarkus.runtime.annotations.RegisterForReflection
    public record Recoverable(long id, String username, String email) {
    }

    public Uni<Recoverable> recoverable(String login) {
        String where = login.contains("@") ? "lower(email) = lower($1)" : "username = $1";
        return pool.preparedQuery("SELECT id, username, email FROM person WHERE " + where)
                .execute(Tuple.of(login.contains("@") ? login : Names.key(login)))
                .map(rows -> rows.rowCount() == 0 ? null : new Recoverable(rows.iterator().next().getLong("id"),
                        rows.iterator().next().getString("username"), rows.iterator().next().getString("email")));
    }

    /** A recovery link for the person (its token's hash, 30 minutes) and its mail, in one transaction. */
    public Uni<Void> insertRecovery(Recoverable person, byte[] tokenHash, String clientAddress, String subject, String body) {
        return pool.withTransaction(conn -> conn.preparedQuery("INSERT INTO password_recovery (token_hash, person_id, "
                        + "expires_at, client_address) VALUES ($1, $2, now() + interval '30 minutes', $3)")
                .execute(Tuple.of(Buffer.buffer(tokenHash), person.id(), clientAddress))
                .chain(() -> MailOutboxRepository.enqueue(conn, person.id(), AccountMails.PASSWORD_RECOVERY, person.email(),
                        subject, body)));
    }

    /** A notice mail of a change, to the person's address ({@code subject} and {@code body} made for it). */
    public record Notice(String kind, String subject, String body) {
    }

    /**
     * Sets the password with a recovery link's token, if it is live and unused: the token and every
     * other live one of the person are used, the change recorded and mailed, in one transaction.
     * The person (null when the token is no good).
     */
    public Uni<Recoverable> resetPassword(byte[] tokenHash, String passwordHash, String clientAddress,
            java.util.function.Function<Recoverable, Notice> notice) {
        return resetPassword(tokenHash, passwordHash, clientAddress, notice, null);
    }

    /**
     * The same; and when the account's owner never proved an address of it before (no confirmed
     * address, no recovery link used: everything in it was set up by someone who proved nothing, as
     * one who signs up with another's address), this link is the first proof, and every way in that
     * predates it goes in the same transaction: second factors, passkeys, recovery codes and linked
     * identities, recorded as one account event and mailed ({@code removed}: the notice of what went).
     */
    public Uni<Recoverable> resetPassword(byte[] tokenHash, String passwordHash, String clientAddress,
            java.util.function.Function<Recoverable, Notice> notice,
            java.util.function.BiFunction<Recoverable, String, Notice> removed) {
        return pool.withTransaction(conn -> conn.preparedQuery("UPDATE password_recovery SET used_at = now() "
                        + "WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING person_id")
                .execute(Tuple.of(Buffer.buffer(tokenHash)))
                .chain(used -> used.rowCount() == 0 ? Uni.createFrom().<Recoverable>nullItem()
                        : conn.preparedQuery("UPDATE person p SET password_hash = $2, password_changed_at = now(), "
                                        + "updated_at = now(), address_proven = true FROM (SELECT id, address_proven FROM person "
                                        + "WHERE id = $1 FOR UPDATE) before WHERE p.id = before.id "
                                        + "RETURNING p.id, p.username, p.email, before.address_proven AS was_proven")
                                .execute(Tuple.of(used.iterator().next().getLong("person_id"), passwordHash))
                                .chain(rows -> {
                                    Row row = rows.iterator().next();
                                    Recoverable person = new Recoverable(row.getLong("id"), row.getString("username"),
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
    private static Uni<Void> removeUnproven(SqlConnection conn, Recoverable person, String clientAddress,
            java.util.function.BiFunction<Recoverable, String, Notice> removed) {
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
                    Notice n = removed.apply(person, detail);
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
    public Uni<Recoverable> changePassword(long personId, String passwordHash, String clientAddress,
            java.util.function.Function<Recoverable, Notice> notice) {
        return changePassword(personId, passwordHash, clientAddress, notice, (conn, person) -> Uni.createFrom().voidItem());
    }

    /** As above, with {@code alsoThen} in the same transaction (a sign-out owed to auth-service). */
    public Uni<Recoverable> changePassword(long personId, String passwordHash, String clientAddress,
            java.util.function.Function<Recoverable, Notice> notice,
            java.util.function.BiFunction<io.vertx.mutiny.sqlclient.SqlConnection, Recoverable, Uni<Void>> alsoThen) {
        return pool.withTransaction(conn -> conn.preparedQuery("UPDATE person SET password_hash = $2, "
                        + "password_changed_at = now(), updated_at = now() WHERE id = $1 RETURNING id, username, email")
                .execute(Tuple.of(personId, passwordHash))
                .chain(rows -> {
                    if (rows.rowCount() == 0) {
                        return Uni.createFrom().<Recoverable>nullItem();
                    }
                    Row row = rows.iterator().next();
                    Recoverable person = new Recoverable(row.getLong("id"), row.getString("username"), row.getString("email"));
                    return conn.preparedQuery("UPDATE password_recovery SET used_at = now() WHERE person_id = $1 "
                                    + "AND used_at IS NULL").execute(Tuple.of(personId))
                            .chain(() -> recorded(conn, person, notice.apply(person), clientAddress))
                            .chain(() -> alsoThen.apply(conn, person)).replaceWith(person);
                }));
    }

    /** A change recorded as an account event and its notice queued, in the caller's transaction. */
    private static Uni<Void> recorded(io.vertx.mutiny.sqlclient.SqlConnection conn, Recoverable person, Notice n,
            String clientAddress) {
        return conn.preparedQuery("INSERT INTO account_event (person_id, kind, client_address) VALUES ($1, $2, $3)")
                .execute(Tuple.of(person.id(), n.kind(), clientAddress))
                .chain(() -> MailOutboxRepository.enqueue(conn, person.id(), n.kind(), person.email(), n.subject(), n.body()));
    }

    /** Whose address a token proved: the person, and the address. */
    @io.quarkus.runtime.annotations.RegisterForReflection
    public record Verified(long personId, String username, String email) {
    }

    /**
     * Uses the token whose hash this is, if it is live and unused, and marks the address it was
     * sent to verified, if it is still the person's: one transaction. Null when the token is
     * unknown, used, expired, or its address is no longer the person's.
     */
    public Uni<Verified> verifyEmail(byte[] tokenHash) {
        return pool.withTransaction(conn -> conn.preparedQuery("UPDATE email_verification SET used_at = now() "
                        + "WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING person_id, email")
                .execute(Tuple.of(Buffer.buffer(tokenHash)))
                .chain(used -> used.rowCount() == 0 ? Uni.createFrom().<Verified>nullItem()
                        : conn.preparedQuery("UPDATE person SET email_verified_at = coalesce(email_verified_at, now()), "
                                        + "updated_at = now() WHERE id = $1 AND lower(email) = lower($2) RETURNING id, username, email")
                                .execute(Tuple.of(used.iterator().next().getLong("person_id"), used.iterator().next().getString("email")))
                                .map(rows -> rows.rowCount() == 0 ? null : new Verified(rows.iterator().next().getLong("id"),
                                        rows.iterator().next().getString("username"), rows.iterator().next().getString("email")))));
    }

    /** Sets the given profile fields; a null list entry leaves that field as it is. */
    public Uni<PersonRow> updateProfile(long id, String displayName, boolean setPublicEmail, String publicEmail) {
        return one("UPDATE person SET display_name = coalesce($2, display_name), "
                + "public_email = CASE WHEN $3 THEN $4 ELSE public_email END, updated_at = now() "
                + "WHERE id = $1 RETURNING " + PersonRow.COLUMNS,
                Tuple.of(id, displayName, setPublicEmail, publicEmail));
    }

    public Uni<Avatar> avatar(String username) {
        return pool.preparedQuery("SELECT avatar, avatar_type FROM person WHERE username = $1 AND avatar IS NOT NULL")
                .execute(Tuple.of(Names.key(username)))
                .map(rows -> rows.rowCount() == 0 ? null
                        : new Avatar(rows.iterator().next().getBuffer("avatar").getBytes(),
                                rows.iterator().next().getString("avatar_type")));
    }

    public Uni<PersonRow> setAvatar(long id, byte[] bytes, String type) {
        return one("UPDATE person SET avatar = $2, avatar_type = $3, updated_at = now() WHERE id = $1 RETURNING "
                + PersonRow.COLUMNS, Tuple.of(id, Buffer.buffer(bytes), type));
    }

    private Uni<PersonRow> one(String sql, Tuple args) {
        return pool.preparedQuery(sql).execute(args)
                .map(rows -> rows.rowCount() == 0 ? null : PersonRow.from(rows.iterator().next()));
    }

    private static List<PersonRow> all(RowSet<Row> rows) {
        List<PersonRow> list = new ArrayList<>(rows.rowCount());
        rows.forEach(row -> list.add(PersonRow.from(row)));
        return list;
    }

    private static Throwable conflict(Throwable failure) {
        PgException pg = (PgException) failure;
        if (!"23505".equals(pg.getSqlState())) {
            return failure;
        }
        String constraint = pg.getConstraint() == null ? "" : pg.getConstraint();
        if (constraint.startsWith("linked_identity")) {
            return new ValueTaken("This identity is linked to another account already.");
        }
        if (constraint.contains("email")) {
            return new AddressTaken();
        }
        return new ValueTaken("This name is taken.");
    }
}
