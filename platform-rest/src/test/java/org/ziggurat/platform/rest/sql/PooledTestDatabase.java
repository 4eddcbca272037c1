package org.ziggurat.platform.rest.sql;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import org.ziggurat.platform.testing.FreePorts;
import org.ziggurat.platform.testing.PostgresTestDatabase;
import org.ziggurat.platform.testing.Pooler;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

/**
 * platform-rest's test application reaches a database of its own as every service does in
 * production: through PgBouncer in transaction mode, with the deploy's Pooler settings, as a role
 * of its own. Its pool retires connections after a second idle or alive, so that a test's load
 * runs while connections come and go.
 */
public class PooledTestDatabase implements QuarkusTestResourceLifecycleManager {

    static final String DATABASE = "ziggurat_test_platform_rest";
    static final String ROLE = "ziggurat_test_pooled";

    private final PostgresTestDatabase database = new PostgresTestDatabase();
    private Pooler pooler;

    @Override
    public void init(Map<String, String> initArgs) {
        database.init(Map.of("database", DATABASE));
    }

    @Override
    public Map<String, String> start() {
        try {
            database.start();
            PostgresTestDatabase.Server server = PostgresTestDatabase.adminServer();
            String password = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
            try (Connection admin = DriverManager.getConnection(server.jdbcUrl(DATABASE), server.user(), server.password());
                    Statement sql = admin.createStatement()) {
                sql.execute("DO $$ BEGIN IF EXISTS (SELECT FROM pg_roles WHERE rolname = '" + ROLE + "') THEN ALTER ROLE "
                        + ROLE + " LOGIN PASSWORD '" + password + "'; ELSE CREATE ROLE " + ROLE + " LOGIN PASSWORD '" + password
                        + "'; END IF; END $$");
                sql.execute("GRANT ALL ON SCHEMA public TO " + ROLE);
                sql.execute("CREATE TABLE note (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, body text NOT NULL)");
                sql.execute("ALTER TABLE note OWNER TO " + ROLE);
            }
            Path log = Files.createDirectories(Path.of("target")).resolve("pgbouncer.log");
            pooler = Pooler.start(log, FreePorts.belowEphemeral(), server.host(), server.port(), DATABASE, Map.of(ROLE, password));
            Map<String, String> config = new HashMap<>();
            config.put("quarkus.datasource.reactive.url", "postgresql://127.0.0.1:" + pooler.port + "/" + DATABASE);
            config.put("quarkus.datasource.username", ROLE);
            config.put("quarkus.datasource.password", password);
            if (!pooler.tracksPreparedStatements) {
                // PgBouncer before 1.21 keeps no prepared statement across transactions (deploy/README.md).
                config.put("quarkus.datasource.reactive.postgresql.use-layer7-proxy", "true");
                config.put("quarkus.datasource.reactive.cache-prepared-statements", "false");
            }
            config.put("quarkus.datasource.reactive.idle-timeout", "1S");
            config.put("quarkus.datasource.reactive.max-lifetime", "1S");
            return config;
        } catch (Exception e) {
            throw new IllegalStateException("the pooled test database did not start: " + e.getMessage(), e);
        }
    }

    @Override
    public void stop() {
        if (pooler != null) {
            pooler.stop();
        }
    }
}
