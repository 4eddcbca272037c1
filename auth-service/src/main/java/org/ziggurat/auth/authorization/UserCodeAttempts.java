package org.ziggurat.auth.authorization;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.crypto.TokenCrypto;

import java.time.Duration;
import java.time.Instant;

/**
 * The device form's wrong user codes, counted on the login session they were typed in
 * ({@link LoginSessions}): too many lock the form for that session a while; the session itself
 * goes on either way.
 */
@ApplicationScoped
public class UserCodeAttempts {

    private final Pool pool;
    private final TokenCrypto crypto;

    UserCodeAttempts(Pool pool, TokenCrypto crypto) {
        this.pool = pool;
        this.crypto = crypto;
    }

    /**
     * Until when the device form is locked for this session (too many wrong user codes); null when
     * it is not. The session itself goes on either way.
     */
    public Uni<Instant> lockedUntil(String cookieValue) {
        return pool.preparedQuery("SELECT user_code_locked_until FROM login_session WHERE session_hash = $1 "
                        + "AND user_code_locked_until > now()")
                .execute(Tuple.of(Buffer.buffer(crypto.hash(cookieValue))))
                .map(rows -> rows.rowCount() == 0 ? null : rows.iterator().next().getOffsetDateTime(0).toInstant());
    }

    /**
     * Counts a wrong user code entered in this session (the device form's POST). The
     * {@code attempts}-th wrong code locks the form until now + {@code lock} and starts the count
     * again; the answer is the lock's end then, else null.
     */
    public Uni<Instant> failed(String cookieValue, int attempts, Duration lock) {
        return pool.preparedQuery("UPDATE login_session SET "
                        + "user_code_failures = CASE WHEN user_code_failures + 1 >= $2 THEN 0 ELSE user_code_failures + 1 END, "
                        + "user_code_locked_until = CASE WHEN user_code_failures + 1 >= $2 "
                        + "THEN now() + make_interval(secs => $3) ELSE user_code_locked_until END "
                        + "WHERE session_hash = $1 RETURNING user_code_failures = 0 AS locked, user_code_locked_until")
                .execute(Tuple.of(Buffer.buffer(crypto.hash(cookieValue)), attempts, (double) lock.toSeconds()))
                .map(rows -> {
                    if (rows.rowCount() == 0) {
                        return null;
                    }
                    var row = rows.iterator().next();
                    return row.getBoolean("locked") ? row.getOffsetDateTime("user_code_locked_until").toInstant() : null;
                });
    }
}
