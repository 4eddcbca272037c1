package org.ziggurat.platform.rest.sql;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Hibernate Reactive with Panache through PgBouncer in transaction mode, as the services would use
 * it for their plain records: with the deploy's Pooler settings and, where PgBouncer is older than
 * 1.21 (Debian's), unnamed statements (deploy/README.md). Transactions of several statements, a
 * read-change-write of an entity, concurrent callers, and connections retired between bursts: every
 * request answers, every acknowledged write is stored once, and no change is lost.
 */
@QuarkusTest
@QuarkusTestResource(PooledTestDatabase.class)
class PanacheThroughPoolerTest {

    @TestHTTPResource("/probe/panache")
    URI panache;

    @Inject
    Pool pool;

    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void transactionsOfSeveralStatementsGoThroughThePooler() throws Exception {
        PooledLoad.Seen seen = PooledLoad.run(http, panache, pool, 4);
        assertEquals(Map.of(200, 160), seen.statuses());
        PooledConnectionsTest.assertStoredOnce(seen.written());
    }

    @Test
    void anEntityChangedInATransactionKeepsEveryChange() throws Exception {
        HttpResponse<String> created = http.send(HttpRequest.newBuilder(panache)
                .POST(HttpRequest.BodyPublishers.ofString("appended:")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, created.statusCode(), created.body());
        Matcher id = PooledConnectionsTest.ID.matcher(created.body());
        id.find();
        URI note = URI.create(panache + "/" + id.group(1));
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> changed = http.send(HttpRequest.newBuilder(note)
                    .PUT(HttpRequest.BodyPublishers.ofString("!")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, changed.statusCode(), changed.body());
            if (i % 5 == 4) {
                // Every few changes on new connections: the pool retires them within a second.
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> pool.size() == 0);
            }
        }
        try (Connection db = PooledConnectionsTest.admin(PooledTestDatabase.DATABASE); Statement sql = db.createStatement();
                ResultSet rows = sql.executeQuery("SELECT body FROM note WHERE id = " + Long.parseLong(id.group(1)))) {
            rows.next();
            assertEquals("appended:" + "!".repeat(20), rows.getString(1));
        }
    }
}
