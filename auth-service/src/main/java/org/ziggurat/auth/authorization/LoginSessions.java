package org.ziggurat.auth.authorization;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.crypto.TokenCrypto;

import java.time.OffsetDateTime;
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

    public record Session(long personId, String username, String csrfToken) {
    }

    public record Created(String cookieValue, Session session) {
    }

    public Uni<Created> create(long personId, String username) {
        String value = crypto.newSession();
        String csrf = crypto.newCsrfToken();
        OffsetDateTime expires = OffsetDateTime.now(ZoneOffset.UTC).plus(config.loginSessionLifetime());
        return pool.preparedQuery("INSERT INTO login_session (session_hash, person_id, username, csrf_token, expires_at) "
                        + "VALUES ($1, $2, $3, $4, $5)")
                .execute(Tuple.of(Buffer.buffer(crypto.hash(value)), personId, username, csrf, expires))
                .map(rows -> new Created(value, new Session(personId, username, csrf)));
    }

    /** The live session of a cookie value; null when absent, unknown or expired. */
    public Uni<Session> find(String cookieValue) {
        if (cookieValue == null || !cookieValue.startsWith(TokenCrypto.SESSION_PREFIX) || cookieValue.length() > 100) {
            return Uni.createFrom().nullItem();
        }
        return pool.preparedQuery("SELECT person_id, username, csrf_token FROM login_session "
                        + "WHERE session_hash = $1 AND expires_at > now()")
                .execute(Tuple.of(Buffer.buffer(crypto.hash(cookieValue))))
                .map(rows -> rows.rowCount() == 0 ? null : new Session(rows.iterator().next().getLong("person_id"),
                        rows.iterator().next().getString("username"), rows.iterator().next().getString("csrf_token")));
    }
}
