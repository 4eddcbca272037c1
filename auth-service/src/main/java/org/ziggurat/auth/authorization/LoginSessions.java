package org.ziggurat.auth.authorization;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.crypto.TokenCrypto;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.time.ZoneOffset;

/** Browser sessions of the login page: the cookie holds a random value, the database its keyed hash. */
@ApplicationScoped
public class LoginSessions {

    public static final String COOKIE = "ziggurat_session";
    /** The login form's double-submit CSRF cookie (before there is a session to hold a token). */
    public static final String LOGIN_CSRF_COOKIE = "ziggurat_login_csrf";

    @Inject
    Pool pool;

    @Inject
    TokenCrypto crypto;

    @Inject
    AuthConfig config;

    /** {@code authTime}: when the person signed in (OpenID Connect's auth_time, and max_age). */
    public record Session(long personId, String username, String csrfToken, Instant authTime) {
    }

    public record Created(String cookieValue, Session session) {
    }

    public Uni<Created> create(long personId, String username) {
        String value = crypto.newSession();
        String csrf = crypto.newCsrfToken();
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS);
        return pool.preparedQuery("INSERT INTO login_session (session_hash, person_id, username, csrf_token, expires_at, "
                        + "created_at) VALUES ($1, $2, $3, $4, $5, $6)")
                .execute(Tuple.of(Buffer.buffer(crypto.hash(value)), personId, username, csrf,
                        now.plus(config.loginSessionLifetime()), now))
                .map(rows -> new Created(value, new Session(personId, username, csrf, now.toInstant())));
    }

    /** The live session of a cookie value; null when absent, unknown or expired. */
    public Uni<Session> find(String cookieValue) {
        if (cookieValue == null || !cookieValue.startsWith(TokenCrypto.SESSION_PREFIX) || cookieValue.length() > 100) {
            return Uni.createFrom().nullItem();
        }
        return pool.preparedQuery("SELECT person_id, username, csrf_token, created_at FROM login_session "
                        + "WHERE session_hash = $1 AND expires_at > now()")
                .execute(Tuple.of(Buffer.buffer(crypto.hash(cookieValue))))
                .map(rows -> {
                    if (rows.rowCount() == 0) {
                        return null;
                    }
                    var row = rows.iterator().next();
                    return new Session(row.getLong("person_id"), row.getString("username"), row.getString("csrf_token"),
                            row.getOffsetDateTime("created_at").toInstant());
                });
    }

    /** Counts a wrong user code entered in this session (the device page); how many there have been. */
    public Uni<Integer> userCodeFailed(String cookieValue) {
        return pool.preparedQuery("UPDATE login_session SET user_code_failures = user_code_failures + 1 "
                        + "WHERE session_hash = $1 RETURNING user_code_failures")
                .execute(Tuple.of(Buffer.buffer(crypto.hash(cookieValue))))
                .map(rows -> rows.rowCount() == 0 ? Integer.MAX_VALUE : rows.iterator().next().getInteger("user_code_failures"));
    }

    /** Signs the person of a cookie out (RP-initiated logout): the session ends everywhere at once. */
    public Uni<Boolean> end(String cookieValue) {
        if (cookieValue == null || !cookieValue.startsWith(TokenCrypto.SESSION_PREFIX) || cookieValue.length() > 100) {
            return Uni.createFrom().item(false);
        }
        return pool.preparedQuery("DELETE FROM login_session WHERE session_hash = $1")
                .execute(Tuple.of(Buffer.buffer(crypto.hash(cookieValue)))).map(rows -> rows.rowCount() > 0);
    }
}
