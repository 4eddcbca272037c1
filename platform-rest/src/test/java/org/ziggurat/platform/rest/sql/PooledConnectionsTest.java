package org.ziggurat.platform.rest.sql;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.PostgresTestDatabase;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The services' pool through PgBouncer in transaction mode (PooledTestDatabase): connections
 * retired after a second idle or alive, and PostgreSQL going away and coming back, under
 * concurrent reads and writes. No request may fail once the database is there, and every
 * acknowledged write is stored once.
 */
@QuarkusTest
// Every platform-rest test application reaches its database through PgBouncer (all of them carry the pool).
@QuarkusTestResource(PooledTestDatabase.class)
class PooledConnectionsTest {

    static final Pattern ID = Pattern.compile("\"id\":(\\d+)");

    @TestHTTPResource("/probe/pooled")
    URI pooled;

    @Inject
    Pool pool;

    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    PooledLoad.Seen load(int bursts) throws Exception {
        return PooledLoad.run(http, pooled, pool, bursts);
    }

    @Test
    void connectionsThatRetireUnderLoadFailNoRequest() throws Exception {
        PooledLoad.Seen seen = load(6);
        assertEquals(Map.of(200, 240), seen.statuses());
        assertStoredOnce(seen.written());
    }

    /**
     * After PostgreSQL was away, PgBouncer refuses the first statements of a pool whose server
     * login failed, even once the server is back: they never reached it, and are sent again.
     */
    @Test
    void theStatementsAfterTheDatabaseCameBackFailNone() throws Exception {
        load(1);
        try (Connection admin = admin("postgres"); Statement sql = admin.createStatement()) {
            sql.execute("ALTER DATABASE " + PooledTestDatabase.DATABASE + " ALLOW_CONNECTIONS false");
            try {
                sql.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"
                        + PooledTestDatabase.DATABASE + "' AND pid <> pg_backend_pid()");
                // Away: a read now is refused (a 503 to retry), and PgBouncer's login fails.
                HttpResponse<String> away = http.send(HttpRequest.newBuilder(pooled).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(503, away.statusCode(), away.body());
            } finally {
                sql.execute("ALTER DATABASE " + PooledTestDatabase.DATABASE + " ALLOW_CONNECTIONS true");
            }
        }
        try (Connection back = admin(PooledTestDatabase.DATABASE)) {
            assertTrue(back.isValid(5), "the database is back");
        }
        PooledLoad.Seen seen = load(3);
        assertEquals(Map.of(200, 120), seen.statuses());
        assertStoredOnce(seen.written());
    }

    static Connection admin(String database) throws SQLException {
        PostgresTestDatabase.Server server = PostgresTestDatabase.adminServer();
        return DriverManager.getConnection(server.jdbcUrl(database), server.user(), server.password());
    }

    static void assertStoredOnce(List<Long> written) throws SQLException {
        assertTrue(written.size() > 0, "no write was acknowledged");
        try (Connection db = admin(PooledTestDatabase.DATABASE); Statement sql = db.createStatement();
                ResultSet rows = sql.executeQuery("SELECT count(*), count(DISTINCT body) FROM note WHERE id IN ("
                        + String.join(",", written.stream().map(String::valueOf).toList()) + ")")) {
            rows.next();
            assertEquals(written.size(), rows.getInt(1), "acknowledged writes that are not stored");
            assertEquals(written.size(), rows.getInt(2), "a write stored twice");
        }
    }
}
