package org.ziggurat.platform.rest.queue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import org.ziggurat.platform.database.DatasourceSettings;
import org.ziggurat.platform.testing.FreePorts;
import org.ziggurat.platform.testing.Pooler;
import org.ziggurat.platform.testing.PostgresTestDatabase;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The queue's tests' database, reached as the services reach theirs in production: statements through
 * PgBouncer in transaction mode (with the deploy's Pooler settings), LISTEN straight to the server.
 * Its table {@code job} is a queue user's table, with a trigger that wakes the queue
 * {@value #QUEUE} in the transaction that enqueues. Each replica is a pool, a meter registry and a
 * {@link Queues} of its own.
 */
final class QueueTestDatabase implements AutoCloseable {

    static final String DATABASE = "ziggurat_test_queue";
    static final String QUEUE = "test_jobs";
    private static final String ROLE = "ziggurat_test_queue";

    /** One replica of a service: its pool and its queues. */
    record Replica(Pool pool, Queues queues, SimpleMeterRegistry metrics) {
    }

    final Vertx vertx = Vertx.vertx();
    private final PostgresTestDatabase.Server server;
    private final String password = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
    private final Pooler pooler;
    private final List<Replica> replicas = new ArrayList<>();

    QueueTestDatabase() throws Exception {
        // The Quarkus tests that ran before in this JVM may have taken the driver away with their application.
        DriverManager.registerDriver(new org.postgresql.Driver());
        PostgresTestDatabase database = new PostgresTestDatabase();
        database.init(Map.of("database", DATABASE));
        database.start();
        server = PostgresTestDatabase.adminServer();
        try (Connection admin = admin(); Statement sql = admin.createStatement()) {
            sql.execute("DO $$ BEGIN IF EXISTS (SELECT FROM pg_roles WHERE rolname = '" + ROLE + "') THEN ALTER ROLE " + ROLE
                    + " LOGIN PASSWORD '" + password + "'; ELSE CREATE ROLE " + ROLE + " LOGIN PASSWORD '" + password
                    + "'; END IF; END $$");
            sql.execute("""
                    CREATE TABLE job (
                        id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                        run             text NOT NULL,
                        lane            text,
                        seq             bigint,
                        body            text NOT NULL,
                        attempts        integer NOT NULL DEFAULT 0,
                        next_attempt_at timestamptz NOT NULL DEFAULT now(),
                        last_error      text,
                        done_at         timestamptz
                    );
                    CREATE INDEX job_lanes ON job (run, lane, id) WHERE done_at IS NULL;
                    CREATE SEQUENCE job_seq;
                    CREATE FUNCTION queue_wake() RETURNS trigger LANGUAGE plpgsql AS $f$
                    BEGIN
                        PERFORM pg_notify(TG_ARGV[0], '');
                        RETURN NULL;
                    END $f$;
                    CREATE TRIGGER job_wake AFTER INSERT ON job FOR EACH STATEMENT EXECUTE FUNCTION queue_wake('queue_test_jobs');
                    """);
            sql.execute("GRANT ALL ON job, job_seq TO " + ROLE);
        }
        Path log = Files.createDirectories(Path.of("target")).resolve("pgbouncer-queue.log");
        pooler = Pooler.start(log, FreePorts.belowEphemeral(), server.host(), server.port(), DATABASE, Map.of(ROLE, password));
    }

    Connection admin() throws SQLException {
        return DriverManager.getConnection(server.jdbcUrl(DATABASE), server.user(), server.password());
    }

    /** A replica whose statements go through the pooler, and whose LISTEN goes straight to the server. */
    Replica replica() {
        PgConnectOptions through = new PgConnectOptions().setHost("127.0.0.1").setPort(pooler.port).setDatabase(DATABASE)
                .setUser(ROLE).setPassword(password);
        if (!pooler.tracksPreparedStatements) {
            // PgBouncer before 1.21 keeps no prepared statement across transactions (deploy/README.md).
            through.setUseLayer7Proxy(true).setCachePreparedStatements(false);
        } else {
            through.setCachePreparedStatements(true);
        }
        Pool pool = Pool.newInstance(PgBuilder.pool().with(new PoolOptions().setMaxSize(4)).connectingTo(through).using(vertx)
                .build());
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        DatasourceSettings direct = new DatasourceSettings(server.reactiveUrl(DATABASE), Optional.of(ROLE), Optional.of(password));
        Replica replica = new Replica(pool, new Queues(pool, vertx, metrics, () -> Optional.of(direct), "queue-test-listener"),
                metrics);
        replicas.add(replica);
        return replica;
    }

    /** The queue of one test's jobs ({@code run}), unordered; done jobs are purged after a day. */
    static QueueTable.Builder jobs(String run) {
        return QueueTable.of(QUEUE, "job", "q.done_at IS NULL AND q.run = '" + run + "'").done("done_at = now(), last_error = NULL")
                .purgeable("q.run = '" + run + "' AND q.done_at < {cutoff}");
    }

    static QueueSettings settings(Duration poll, Duration lease, int batch, int concurrency) {
        return new QueueSettings(poll, lease, batch, concurrency, Duration.ofMillis(50), Duration.ofMillis(200),
                Optional.of(Duration.ofDays(1)));
    }

    /** Enqueues jobs of {@code run}, one statement (so one transaction) for all; their ids in order. */
    List<Long> enqueue(String run, String lane, List<String> bodies) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (Connection c = admin(); var insert = c.prepareStatement(
                "INSERT INTO job (run, lane, body) SELECT ?, ?, b FROM unnest(?::text[]) WITH ORDINALITY AS u (b, i) ORDER BY i "
                        + "RETURNING id")) {
            insert.setString(1, run);
            insert.setString(2, lane);
            insert.setArray(3, c.createArrayOf("text", bodies.toArray()));
            try (var rows = insert.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                }
            }
        }
        ids.sort(Long::compare);
        return ids;
    }

    long count(String sql) throws SQLException {
        try (Connection c = admin(); Statement s = c.createStatement(); var rows = s.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    @Override
    public void close() {
        for (Replica replica : replicas) {
            replica.queues().stop();
            replica.pool().close().await().atMost(Duration.ofSeconds(10));
        }
        pooler.stop();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }
}
