package org.ziggurat.platform.rest.sql;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import org.awaitility.Awaitility;
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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
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

    /** What a load saw: the statuses, and the ids of the acknowledged writes. */
    record Seen(Map<Integer, Integer> statuses, List<Long> written) {
    }

    /**
     * Bursts of reads and writes from 8 callers; between them the pool retires every connection
     * (idle timeout and lifetime of a second), so that each burst takes new ones.
     */
    Seen load(int bursts) throws Exception {
        Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
        List<Long> written = Collections.synchronizedList(new ArrayList<>());
        ExecutorService callers = Executors.newFixedThreadPool(8);
        try {
            for (int burst = 0; burst < bursts; burst++) {
                List<Future<?>> calls = new ArrayList<>();
                for (int i = 0; i < 40; i++) {
                    boolean write = i % 2 == 0;
                    String body = "note " + burst + "-" + i;
                    calls.add(callers.submit(() -> {
                        HttpRequest request = write
                                ? HttpRequest.newBuilder(pooled).POST(HttpRequest.BodyPublishers.ofString(body)).build()
                                : HttpRequest.newBuilder(pooled).GET().build();
                        HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
                        statuses.merge(answer.statusCode(), 1, Integer::sum);
                        Matcher id = ID.matcher(answer.body());
                        if (write && answer.statusCode() == 200 && id.find()) {
                            written.add(Long.parseLong(id.group(1)));
                        }
                        return null;
                    }));
                }
                for (Future<?> call : calls) {
                    call.get(30, TimeUnit.SECONDS);
                }
                // Until the pool has retired every connection of the burst: the next one opens new ones.
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> pool.size() == 0);
            }
        } finally {
            callers.shutdownNow();
        }
        return new Seen(statuses, written);
    }

    @Test
    void connectionsThatRetireUnderLoadFailNoRequest() throws Exception {
        Seen seen = load(6);
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
        Seen seen = load(3);
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
