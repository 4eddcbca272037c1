package org.ziggurat.platform.rest.sql;

import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;

import java.net.ConnectException;
import java.util.List;

/**
 * Failures of a statement that never reached PostgreSQL, and so may be sent again, reads and
 * writes alike: the connection was closed before the statement was written, or PgBouncer refused
 * it before it gave the client a server connection. A failure after the statement may have
 * reached the server (a connection lost while waiting for the answer, an error of the server's
 * own) is none of these: the statement may have run, and only the caller can tell whether to
 * repeat it.
 */
public final class NeverSent {

    /**
     * PgBouncer's refusals (SQL state 08P01), which it sends before it gives the client a server
     * connection, so before the statement went anywhere: right after a server login failed
     * (PostgreSQL restarting, away, or full: it refuses the first client after that at once, even
     * once the server is back), and when it has no room for another client. Not its
     * query_wait_timeout: that one already waited 3 s for the database, which is away.
     */
    static final List<String> POOLER_REFUSALS = List.of("server login has been failing", "pgbouncer cannot connect to server",
            "no more connections allowed");

    private NeverSent() {
    }

    public static boolean test(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t == ConnectionBase.CLOSED_EXCEPTION // a new pooled connection closed before it was handed out
                    || t instanceof ConnectException // the pooler or server not listening: nothing was sent
                    || notWritten(t.getMessage())) {
                return true;
            }
            if (t instanceof PgException pg && "08P01".equals(pg.getSqlState()) && pg.getErrorMessage() != null
                    && POOLER_REFUSALS.stream().anyMatch(pg.getErrorMessage()::startsWith)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The connection went, whether or not the statement had reached the server: {@link #test},
     * or the answer never came. Enough to send again what has no effect until committed (a
     * transaction before its COMMIT was sent) or no effect at all (a read).
     */
    public static boolean connectionLost(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ClosedConnectionException) {
                return true;
            }
        }
        return test(failure);
    }

    /**
     * Whether a statement only reads: a SELECT (or a WITH of SELECTs) that locks nothing and calls
     * no function with an effect of its own. Sending it again is harmless whatever happened to it.
     * PgBouncer closes a connection after refusing its statement, and the client then reports the
     * close, not the refusal, so a read whose connection went is sent again too.
     */
    public static boolean isRead(String sql) {
        String s = sql.strip().toLowerCase(java.util.Locale.ROOT).replaceAll("\\s+", " ");
        if (!s.startsWith("select ") && !s.startsWith("with ")) {
            return false;
        }
        for (String effect : List.of(" for update", " for no key update", " for share", " for key share", "nextval(",
                "setval(", "pg_notify(", "pg_advisory", "set_config(")) {
            if (s.contains(effect)) {
                return false;
            }
        }
        return !s.startsWith("with ") || !s.matches(".*\\b(insert|update|delete|merge)\\b.*");
    }

    /** The client's own words for a command it did not write: the connection had closed first. */
    private static boolean notWritten(String message) {
        return message != null && (message.startsWith("Connection is not active now")
                || message.startsWith("Pending requests failed to be sent"));
    }
}
