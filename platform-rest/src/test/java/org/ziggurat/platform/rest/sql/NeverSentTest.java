package org.ziggurat.platform.rest.sql;

import io.vertx.core.VertxException;
import io.vertx.core.impl.NoStackTraceThrowable;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which failures are safe to send again, and which statements only read. */
class NeverSentTest {

    @Test
    void failuresBeforeTheStatementWasWrittenNeverReachedTheServer() {
        for (Throwable notSent : List.of(ConnectionBase.CLOSED_EXCEPTION, new ConnectException("Connection refused"),
                new NoStackTraceThrowable("Connection is not active now, current status: CLOSED"),
                new VertxException("Pending requests failed to be sent due to connection has been closed.", true),
                new PgException("server login has been failing, try again later (server_login_retry)", "FATAL", "08P01", null),
                new PgException("pgbouncer cannot connect to server", "FATAL", "08P01", null),
                new PgException("no more connections allowed (max_client_conn)", "FATAL", "08P01", null),
                new RuntimeException("wrapped", ConnectionBase.CLOSED_EXCEPTION))) {
            assertTrue(NeverSent.test(notSent), notSent.toString());
            assertTrue(NeverSent.connectionLost(notSent), notSent.toString());
        }
    }

    @Test
    void aLostAnswerOrTheServersOwnErrorMayHaveHadAnEffect() {
        assertFalse(NeverSent.test(ClosedConnectionException.INSTANCE), "the answer was lost: it may have run");
        assertTrue(NeverSent.connectionLost(ClosedConnectionException.INSTANCE));
        for (Throwable ran : List.of(new PgException("duplicate key value", "ERROR", "23505", null),
                new PgException("query_wait_timeout", "ERROR", "08P01", null),
                new PgException("terminating connection due to administrator command", "FATAL", "57P01", null),
                new PgException("protocol violation", "FATAL", "08P01", null), new IllegalStateException("a bug"))) {
            assertFalse(NeverSent.test(ran), ran.toString());
            assertFalse(NeverSent.connectionLost(ran), ran.toString());
        }
    }

    @Test
    void readsAreSelectsThatLockAndChangeNothing() {
        for (String read : List.of("SELECT count(*) FROM note", "  select id\n FROM token WHERE hash = $1",
                "WITH recent AS (SELECT * FROM data_event) SELECT count(*) FROM recent",
                "SELECT ceil(extract(epoch FROM max(blocked_until) - now()))::bigint AS seconds FROM login_throttle")) {
            assertTrue(NeverSent.isRead(read), read);
        }
        for (String write : List.of("INSERT INTO note (body) VALUES ($1)", "UPDATE token SET used_at = now()",
                "DELETE FROM login_session WHERE expires_at < now()", "SELECT id FROM concept WHERE id = $1 FOR UPDATE",
                "SELECT id FROM organization WHERE id = $1 FOR SHARE", "SELECT pg_notify($1, $2)",
                "SELECT pg_advisory_xact_lock($1)", "SELECT nextval('note_id_seq')", "SELECT set_config('x', 'y', false)",
                "WITH made AS (INSERT INTO repository (name) VALUES ($1) RETURNING id) SELECT id FROM made",
                "WITH gone AS (DELETE FROM note RETURNING id) SELECT count(*) FROM gone",
                "with moved as (update note set body = $1 returning id) select id from moved", "VALUES (1)")) {
            assertFalse(NeverSent.isRead(write), write);
        }
    }
}
