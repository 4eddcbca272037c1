package org.ziggurat.auth.authorization;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.crypto.TokenCrypto;

import java.time.Duration;

/**
 * Sign-ins that passed the password and wait for the second factor, in the database (every
 * replica sees them): the browser's cookie holds a random value, the table its keyed hash, for
 * {@link #LIFETIME}. The second factor ends one; nothing else comes of it. Each code sent for one
 * is counted before it is checked, by one conditional {@code UPDATE} (so codes sent at once are
 * counted exactly, on any replica): past {@link #CODES} it is ended, and the person signs in again.
 */
@ApplicationScoped
public class PendingSignIns {

    public static final String COOKIE = "ziggurat_pending_sign_in";
    public static final Duration LIFETIME = Duration.ofMinutes(10);
    /** The codes one pending sign-in takes; the last of them, when wrong, ends it. */
    public static final int CODES = 5;

    /**
     * {@code firstAmr}: how a provider signed the person in before their own second factor; null after
     * the password; {@code firstAssurance}: what that provider asserted (null: nothing).
     */
    public record Pending(long personId, String username, java.util.List<String> firstAmr, java.util.List<String> firstAssurance) {
    }

    private final Pool pool;
    private final TokenCrypto crypto;

    PendingSignIns(Pool pool, TokenCrypto crypto) {
        this.pool = pool;
        this.crypto = crypto;
    }

    /** The cookie's value of a new pending sign-in. */
    public Uni<String> create(long personId, String username) {
        return create(personId, username, null, null);
    }

    /** After a provider's sign-in ({@code firstAmr}: its methods), the cookie's value of a new pending sign-in. */
    public Uni<String> create(long personId, String username, java.util.List<String> firstAmr,
            java.util.List<String> firstAssurance) {
        String value = crypto.newPendingSignIn();
        return pool.preparedQuery("INSERT INTO pending_sign_in (pending_hash, person_id, username, expires_at, first_amr, "
                        + "first_assurance) VALUES ($1, $2, $3, now() + $4 * interval '1 second', $5, $6)")
                .execute(Tuple.tuple(java.util.Arrays.asList(Buffer.buffer(crypto.hash(value)), personId, username,
                        LIFETIME.toSeconds(), firstAmr == null ? null : firstAmr.toArray(String[]::new),
                        firstAssurance == null || firstAssurance.isEmpty() ? null : firstAssurance.toArray(String[]::new))))
                .replaceWith(value);
    }

    /**
     * A code is sent for the pending sign-in of a cookie's value: counted before it is checked,
     * once per code, if the sign-in has taken fewer than {@link #CODES}. The sign-in and how many
     * codes it has taken with this one; null when unknown, ended, expired, or out of codes (then
     * it is ended).
     */
    public Uni<Counted> countCode(String value) {
        if (!plausible(value)) {
            return Uni.createFrom().nullItem();
        }
        Buffer hash = Buffer.buffer(crypto.hash(value));
        return pool.preparedQuery("UPDATE pending_sign_in SET codes = codes + 1 WHERE pending_hash = $1 AND expires_at > now() "
                        + "AND codes < $2 RETURNING person_id, username, first_amr, first_assurance, codes")
                .execute(Tuple.of(hash, CODES))
                .chain(rows -> {
                    if (rows.rowCount() == 0) {
                        // Out of codes (or gone): nothing more is checked for it.
                        return pool.preparedQuery("DELETE FROM pending_sign_in WHERE pending_hash = $1").execute(Tuple.of(hash))
                                .replaceWith((Counted) null);
                    }
                    var row = rows.iterator().next();
                    return Uni.createFrom().item(new Counted(pending(row), row.getInteger("codes")));
                });
    }

    /** A pending sign-in and the codes it has taken (this one with them). */
    public record Counted(Pending pending, int codes) {
        /** Whether this was its last code: wrong, it ends the sign-in. */
        public boolean last() {
            return codes >= CODES;
        }
    }

    private static Pending pending(io.vertx.mutiny.sqlclient.Row row) {
        String[] firstAmr = row.getArrayOfStrings("first_amr");
        String[] firstAssurance = row.getArrayOfStrings("first_assurance");
        return new Pending(row.getLong("person_id"), row.getString("username"),
                firstAmr == null ? null : java.util.List.of(firstAmr),
                firstAssurance == null ? null : java.util.List.of(firstAssurance));
    }

    /** The pending sign-in of a cookie's value; null when unknown, ended or expired. */
    public Uni<Pending> find(String value) {
        if (!plausible(value)) {
            return Uni.createFrom().nullItem();
        }
        return pool.preparedQuery("SELECT person_id, username, first_amr, first_assurance FROM pending_sign_in WHERE pending_hash = $1 "
                        + "AND expires_at > now()")
                .execute(Tuple.of(Buffer.buffer(crypto.hash(value))))
                .map(rows -> {
                    if (rows.rowCount() == 0) {
                        return null;
                    }
                    return pending(rows.iterator().next());
                });
    }

    /** Ends it, once: true for the caller that ended it (two tabs posting the same code make one session). */
    public Uni<Boolean> end(String value) {
        if (!plausible(value)) {
            return Uni.createFrom().item(false);
        }
        return pool.preparedQuery("DELETE FROM pending_sign_in WHERE pending_hash = $1 AND expires_at > now()")
                .execute(Tuple.of(Buffer.buffer(crypto.hash(value)))).map(rows -> rows.rowCount() == 1);
    }

    private static boolean plausible(String value) {
        return value != null && value.startsWith(TokenCrypto.PENDING_SIGN_IN_PREFIX) && value.length() <= 100;
    }
}
