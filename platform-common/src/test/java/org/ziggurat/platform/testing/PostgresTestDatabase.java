package org.ziggurat.platform.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/**
 * A fresh PostgreSQL database of the module's own for each test run, on a real server.
 *
 * <p>Which server: the one named by the standard {@code QUARKUS_DATASOURCE_JDBC_URL} (with
 * {@code QUARKUS_DATASOURCE_USERNAME}/{@code _PASSWORD}); else {@code ZIGGURAT_TEST_PG_URL}
 * ({@code postgresql://user:password@host:port}); else, where a Docker engine is present, none:
 * Quarkus Dev Services start a container; else the local server at 127.0.0.1:5432 as
 * {@code postgres}. The database ({@code database} init argument) is dropped and created anew, so
 * runs are repeatable and modules never see each other's data. Its {@code search_path} starts
 * with the module's schema ({@code schema} init argument), as the service's own role has in a
 * real deployment.
 */
public class PostgresTestDatabase implements QuarkusTestResourceLifecycleManager {

    public static final String SERVER_VARIABLE = "ZIGGURAT_TEST_PG_URL";

    private String database;
    private String schema;

    /** A PostgreSQL server and the administrator to connect as. */
    public record Server(String host, int port, String user, String password) {
        public String jdbcUrl(String db) {
            return "jdbc:postgresql://" + host + ":" + port + "/" + db;
        }

        public String reactiveUrl(String db) {
            return "postgresql://" + host + ":" + port + "/" + db;
        }
    }

    @Override
    public void init(Map<String, String> initArgs) {
        database = initArgs.getOrDefault("database", "ziggurat_test");
        schema = initArgs.get("schema");
        if (!database.matches("[a-z_][a-z0-9_]{0,62}") || (schema != null && !schema.matches("[a-z_][a-z0-9_]{0,62}"))) {
            throw new IllegalArgumentException("database and schema must be plain lower-case identifiers");
        }
    }

    @Override
    public Map<String, String> start() {
        Server server = resolveServer();
        if (server == null) {
            return Map.of(); // Dev Services provide a container of the module's own.
        }
        try (Connection admin = DriverManager.getConnection(server.jdbcUrl("postgres"), server.user(), server.password());
                Statement sql = admin.createStatement()) {
            sql.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
            sql.execute("CREATE DATABASE " + database);
            if (schema != null) {
                sql.execute("ALTER DATABASE " + database + " SET search_path TO " + schema + ", public");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot prepare the test database " + database + " on "
                    + server.host() + ":" + server.port() + " (set " + SERVER_VARIABLE
                    + " or QUARKUS_DATASOURCE_JDBC_URL to a reachable PostgreSQL): " + e.getMessage(), e);
        }
        Map<String, String> config = new HashMap<>();
        config.put("quarkus.datasource.jdbc.url", server.jdbcUrl(database));
        config.put("quarkus.datasource.reactive.url", server.reactiveUrl(database));
        config.put("quarkus.datasource.username", server.user());
        config.put("quarkus.datasource.password", server.password() == null ? "" : server.password());
        return config;
    }

    @Override
    public void stop() {
        // The database stays for inspection after a failed run; the next run replaces it.
    }

    /**
     * The server to test against, for harnesses that start the services themselves (no Dev
     * Services): as {@link #resolveServer()}, with the local server where that would be Docker.
     */
    public static Server adminServer() {
        Server server = resolveServer();
        return server != null ? server : new Server("127.0.0.1", 5432, "postgres", null);
    }

    static Server resolveServer() {
        String jdbc = System.getenv("QUARKUS_DATASOURCE_JDBC_URL");
        if (jdbc != null && !jdbc.isBlank()) {
            URI uri = URI.create(jdbc.substring("jdbc:".length()));
            return new Server(uri.getHost(), uri.getPort() > 0 ? uri.getPort() : 5432,
                    envOr("QUARKUS_DATASOURCE_USERNAME", "postgres"), System.getenv("QUARKUS_DATASOURCE_PASSWORD"));
        }
        String named = System.getenv(SERVER_VARIABLE);
        if (named != null && !named.isBlank()) {
            return parse(named);
        }
        if (dockerPresent()) {
            return null;
        }
        return new Server("127.0.0.1", 5432, "postgres", null);
    }

    /** {@code postgresql://user:password@host:port[/anything]}. */
    static Server parse(String url) {
        URI uri = URI.create(url.startsWith("jdbc:") ? url.substring(5) : url);
        String user = "postgres";
        String password = null;
        if (uri.getUserInfo() != null) {
            String[] parts = uri.getUserInfo().split(":", 2);
            user = parts[0];
            password = parts.length > 1 ? parts[1] : null;
        }
        return new Server(uri.getHost() == null ? "127.0.0.1" : uri.getHost(),
                uri.getPort() > 0 ? uri.getPort() : 5432, user, password);
    }

    private static boolean dockerPresent() {
        return System.getenv("DOCKER_HOST") != null || Files.exists(Path.of("/var/run/docker.sock"));
    }

    private static String envOr(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
