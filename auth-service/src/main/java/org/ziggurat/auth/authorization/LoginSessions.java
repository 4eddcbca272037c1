package org.ziggurat.auth.authorization;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.tokens.LiveAccessTokens;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * Browser sessions of the login page: the cookie holds a random value, the database its keyed hash.
 * The device form's wrong user codes, counted per session: {@link UserCodeAttempts}.
 */
@ApplicationScoped
public class LoginSessions {

    public static final String COOKIE = "ziggurat_session";
    /** The login form's double-submit CSRF cookie (before there is a session to hold a token). */
    public static final String LOGIN_CSRF_COOKIE = "ziggurat_login_csrf";

    private final Pool pool;
    private final TokenCrypto crypto;
    private final AuthConfig config;
    private final LiveAccessTokens liveTokens;
    private final RecentSignIns recentSignIns;

    LoginSessions(Pool pool, TokenCrypto crypto, AuthConfig config, LiveAccessTokens liveTokens, RecentSignIns recentSignIns) {
        this.pool = pool;
        this.crypto = crypto;
        this.config = config;
        this.liveTokens = liveTokens;
        this.recentSignIns = recentSignIns;
    }

    /**
     * {@code authTime}: when the person signed in, to the second (OpenID Connect's auth_time, and
     * max_age); {@code signedInAt} the same moment exactly, on the database's clock, to compare
     * with other moments of that clock (a pushed request's). {@code hash}: the keyed hash that
     * names the session in the database, which the tokens bound to it carry; {@code expiresAt}:
     * when it ends unless the person signs out before. {@code amr}: how the person signed in
     * (RFC 8176); {@code secondFactor}: whether they have one, which an application may ask for.
     * {@code recent}: whether that sign-in was recent when the session was read ({@link RecentSignIns}),
     * read once for the request, so that its page and its change agree on whether to ask for the
     * password again.
     */
    public record Session(long personId, String username, String csrfToken, Instant authTime, Instant signedInAt,
            byte[] hash, Instant expiresAt, List<String> amr, boolean secondFactor, boolean recent) {
    }

    public record Created(String cookieValue, Session session) {
    }

    /** A new session of a person who signed in by {@code amr}; {@code secondFactor}: they have one. */
    public Uni<Created> create(long personId, String username, List<String> amr, boolean secondFactor) {
        return create(personId, username, amr, secondFactor, null);
    }

    /**
     * The same after another provider's sign-in: {@code assurance}, the eduperson_assurance values it
     * asserted at this sign-in that its operator lets it assert, which the tokens of this session
     * carry (only this sign-in's: none for a password's, nothing kept past the session).
     */
    public Uni<Created> create(long personId, String username, List<String> amr, boolean secondFactor, List<String> assurance) {
        String value = crypto.newSession();
        String csrf = crypto.newCsrfToken();
        byte[] hash = crypto.hash(value);
        return pool.preparedQuery("INSERT INTO login_session (session_hash, person_id, username, csrf_token, expires_at, "
                        + "created_at, amr, second_factor, assurance) VALUES ($1, $2, $3, $4, now() + $5 * interval '1 second', "
                        + "now(), $6, $7, $8) RETURNING created_at, expires_at, amr, second_factor")
                .execute(Tuple.tuple(java.util.Arrays.asList(Buffer.buffer(hash), personId, username, csrf,
                        config.loginSessionLifetime().toSeconds(), amr.toArray(String[]::new), secondFactor,
                        assurance == null || assurance.isEmpty() ? null : assurance.toArray(String[]::new))))
                .map(rows -> new Created(value, session(personId, username, csrf, hash, rows.iterator().next())));
    }

    private Session session(long personId, String username, String csrf, byte[] hash, Row row) {
        Instant signedInAt = row.getOffsetDateTime("created_at").toInstant();
        Instant authTime = signedInAt.truncatedTo(ChronoUnit.SECONDS);
        return new Session(personId, username, csrf, authTime, signedInAt, hash,
                row.getOffsetDateTime("expires_at").toInstant(), List.of(row.getArrayOfStrings("amr")),
                row.getBoolean("second_factor"), recentSignIns.recent(authTime));
    }

    /**
     * The session's person now has a second factor (set up in it, on the account page): an
     * application that asks for one (acr_values) then has them sign in again with it, instead of
     * being told to set one up.
     */
    public Uni<Void> secondFactorAdded(Session session) {
        return pool.preparedQuery("UPDATE login_session SET second_factor = true WHERE session_hash = $1")
                .execute(Tuple.of(Buffer.buffer(session.hash()))).replaceWithVoid();
    }

    /** The live session of a cookie value; null when absent, unknown or expired. */
    public Uni<Session> find(String cookieValue) {
        if (cookieValue == null || !cookieValue.startsWith(TokenCrypto.SESSION_PREFIX) || cookieValue.length() > 100) {
            return Uni.createFrom().nullItem();
        }
        byte[] hash = crypto.hash(cookieValue);
        return pool.preparedQuery("SELECT person_id, username, csrf_token, created_at, expires_at, amr, second_factor FROM login_session "
                        + "WHERE session_hash = $1 AND expires_at > now()")
                .execute(Tuple.of(Buffer.buffer(hash)))
                .map(rows -> {
                    if (rows.rowCount() == 0) {
                        return null;
                    }
                    var row = rows.iterator().next();
                    return session(row.getLong("person_id"), row.getString("username"), row.getString("csrf_token"), hash, row);
                });
    }

    /** One of a person's sign-ins as the account page lists it; {@code current}: the one asking. */
    public record Listed(long id, String clientAddress, String userAgent, Instant startedAt, Instant lastSeenAt,
            boolean current) {
    }

    /**
     * Where a sign-in came from, recorded right after it (the sign-in's POST): the address, the
     * browser (its User-Agent, cut to 300 characters), and now as its last use.
     */
    public Uni<Void> describe(byte[] hash, String clientAddress, String userAgent) {
        String agent = userAgent == null ? null : userAgent.length() > 300 ? userAgent.substring(0, 300) : userAgent;
        return pool.preparedQuery("UPDATE login_session SET client_address = $2, user_agent = $3, last_seen_at = now() "
                + "WHERE session_hash = $1").execute(Tuple.of(Buffer.buffer(hash), clientAddress, agent)).replaceWithVoid();
    }

    /** The session was used (a POST made with it, an authorization given from it). */
    public Uni<Void> seen(byte[] hash) {
        return pool.preparedQuery("UPDATE login_session SET last_seen_at = now() WHERE session_hash = $1")
                .execute(Tuple.of(Buffer.buffer(hash))).replaceWithVoid();
    }

    /** The person's live sessions, the latest first. */
    public Uni<List<Listed>> list(Session current) {
        return pool.preparedQuery("SELECT id, client_address, user_agent, created_at, last_seen_at, session_hash = $2 AS current "
                        + "FROM login_session WHERE person_id = $1 AND expires_at > now() ORDER BY created_at DESC, id DESC")
                .execute(Tuple.of(current.personId(), Buffer.buffer(current.hash())))
                .map(rows -> {
                    List<Listed> listed = new ArrayList<>();
                    for (Row row : rows) {
                        listed.add(new Listed(row.getLong("id"), row.getString("client_address"), row.getString("user_agent"),
                                row.getOffsetDateTime("created_at").toInstant(),
                                row.getOffsetDateTime("last_seen_at") == null ? null : row.getOffsetDateTime("last_seen_at").toInstant(),
                                row.getBoolean("current")));
                    }
                    return listed;
                });
    }

    /**
     * Ends one session of the person by its id, not the one asking (that is signing out), with the
     * tokens bound to it. False when the person has no such other session.
     */
    public Uni<Boolean> endOne(Session current, long id) {
        return endSessions("person_id = $1 AND session_hash <> $2 AND id = $3",
                Tuple.of(current.personId(), Buffer.buffer(current.hash()), id)).map(ended -> ended > 0);
    }

    /**
     * Ends every other session of the person (after a password change made in {@code keep}), and
     * with them, in the same statement, the tokens bound to them. How many sessions ended.
     */
    public Uni<Integer> endOthers(long personId, byte[] keep) {
        return endSessions("person_id = $1 AND session_hash <> $2", Tuple.of(personId, Buffer.buffer(keep)));
    }

    /**
     * Ends the sessions {@code where} names and, in the same statement, the tokens bound to them,
     * forgotten by this replica before the answer (the others hear it at commit). How many ended.
     */
    private Uni<Integer> endSessions(String where, Tuple args) {
        return pool.preparedQuery("WITH ended AS (DELETE FROM login_session WHERE " + where + " RETURNING session_hash), "
                        + "revoked AS (UPDATE token SET revoked_at = now(), updated_at = now() "
                        + "WHERE session_hash IN (SELECT session_hash FROM ended) AND revoked_at IS NULL RETURNING hash) "
                        + "SELECT (SELECT count(*) FROM ended) AS ended, r.hash FROM (SELECT 1) one LEFT JOIN revoked r ON true")
                .execute(args)
                .map(rows -> {
                    long ended = 0;
                    List<byte[]> revoked = new ArrayList<>();
                    for (Row row : rows) {
                        ended = row.getLong("ended");
                        if (row.getValue("hash") != null) {
                            revoked.add(row.getBuffer("hash").getBytes());
                        }
                    }
                    liveTokens.forget(revoked);
                    return (int) ended;
                });
    }

    /**
     * Signs the person of a cookie out (RP-initiated logout): the session ends everywhere at once,
     * and with it, in the same statement, the tokens bound to it (an OpenID Connect client's
     * without offline_access, OpenID Connect Core §11). True when there was a session to end.
     */
    public Uni<Boolean> end(String cookieValue) {
        if (cookieValue == null || !cookieValue.startsWith(TokenCrypto.SESSION_PREFIX) || cookieValue.length() > 100) {
            return Uni.createFrom().item(false);
        }
        return pool.preparedQuery("WITH ended AS (DELETE FROM login_session WHERE session_hash = $1 RETURNING 1), "
                        + "revoked AS (UPDATE token SET revoked_at = now(), updated_at = now() "
                        + "WHERE session_hash = $1 AND revoked_at IS NULL RETURNING hash) "
                        // At least one row, and one for each revoked token.
                        + "SELECT (SELECT count(*) FROM ended) > 0 AS ended, r.hash FROM (SELECT 1) one LEFT JOIN revoked r ON true")
                .execute(Tuple.of(Buffer.buffer(crypto.hash(cookieValue))))
                .map(rows -> {
                    boolean ended = false;
                    List<byte[]> revoked = new ArrayList<>();
                    for (Row row : rows) {
                        ended = row.getBoolean("ended");
                        if (row.getValue("hash") != null) {
                            revoked.add(row.getBuffer("hash").getBytes());
                        }
                    }
                    // Out of this replica's memory before the answer; the others hear it at commit.
                    liveTokens.forget(revoked);
                    return ended;
                });
    }
}
