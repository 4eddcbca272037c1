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
                            false, false, at, at, false, ProfileDetails.NONE);
                }));
    }

    /** Someone who may recover an account: by username or sign-in address. */
    @io.quarkus.runtime.annotations.RegisterForReflection
    public record Recoverable(long id, String username, String email) {
    }

    /** A notice mail of a change, to the person's address ({@code subject} and {@code body} made for it). */
    public record Notice(String kind, String subject, String body) {
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

    /** Each detail's column: set to the value when the change names it ($5, $7, …), as it is otherwise. */
    private static final String SET_DETAILS = String.join("", java.util.stream.IntStream.range(0, ProfileDetails.FIELDS.size())
            .mapToObj(i -> ProfileDetails.FIELDS.get(i) + " = CASE WHEN $" + (5 + 2 * i) + " THEN $" + (6 + 2 * i)
                    + " ELSE " + ProfileDetails.FIELDS.get(i) + " END, ").toList());

    /** Sets the fields the change names (a null display name leaves it as it is). */
    public Uni<PersonRow> updateProfile(long id, ProfileChange change) {
        Tuple args = Tuple.of(id, change.displayName(), change.setEmail(), change.email());
        for (int i = 0; i < ProfileDetails.FIELDS.size(); i++) {
            args.addBoolean(change.detailsNamed().contains(ProfileDetails.FIELDS.get(i)))
                    .addString(change.details().values().get(i));
        }
        return one("UPDATE person SET display_name = coalesce($2, display_name), "
                + "public_email = CASE WHEN $3 THEN $4 ELSE public_email END, " + SET_DETAILS + "updated_at = now() "
                + "WHERE id = $1 RETURNING " + PersonRow.COLUMNS, args);
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
