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
 * {@link #LIFETIME}. The second factor ends one; nothing else comes of it.
 */
@ApplicationScoped
public class PendingSignIns {

    public static final String COOKIE = "ziggurat_pending_sign_in";
    public static final Duration LIFETIME = Duration.ofMinutes(10);

    /** {@code firstAmr}: how a provider signed the person in before their own second factor; null after the password. */
    public record Pending(long personId, String username, java.util.List<String> firstAmr) {
    }

    private final Pool pool;
    private final TokenCrypto crypto;

    PendingSignIns(Pool pool, TokenCrypto crypto) {
        this.pool = pool;
        this.crypto = crypto;
    }

    /** The cookie's value of a new pending sign-in. */
    public Uni<String> create(long personId, String username) {
        return create(personId, username, null);
    }

    /** After a provider's sign-in ({@code firstAmr}: its methods), the cookie's value of a new pending sign-in. */
    public Uni<String> create(long personId, String username, java.util.List<String> firstAmr) {
        String value = crypto.newPendingSignIn();
        return pool.preparedQuery("INSERT INTO pending_sign_in (pending_hash, person_id, username, expires_at, first_amr) "
                        + "VALUES ($1, $2, $3, now() + $4 * interval '1 second', $5)")
                .execute(Tuple.of(Buffer.buffer(crypto.hash(value)), personId, username, LIFETIME.toSeconds(),
                        firstAmr == null ? null : firstAmr.toArray(String[]::new)))
                .replaceWith(value);
    }

    /** The pending sign-in of a cookie's value; null when unknown, ended or expired. */
    public Uni<Pending> find(String value) {
        if (!plausible(value)) {
            return Uni.createFrom().nullItem();
        }
        return pool.preparedQuery("SELECT person_id, username, first_amr FROM pending_sign_in WHERE pending_hash = $1 "
                        + "AND expires_at > now()")
                .execute(Tuple.of(Buffer.buffer(crypto.hash(value))))
                .map(rows -> {
                    if (rows.rowCount() == 0) {
                        return null;
                    }
                    var row = rows.iterator().next();
                    String[] firstAmr = row.getArrayOfStrings("first_amr");
                    return new Pending(row.getLong("person_id"), row.getString("username"),
                            firstAmr == null ? null : java.util.List.of(firstAmr));
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
