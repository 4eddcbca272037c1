package org.ziggurat.platform.testing;

import org.eclipse.microprofile.config.spi.ConfigSource;

import java.util.Map;
import java.util.Set;

/**
 * Decides, before Quarkus builds the test application, whether Dev Services may start a
 * Postgres container: only when {@link PostgresTestDatabase} found no server to use (a Docker
 * engine is present and nothing was named). Otherwise Dev Services would fail the build without
 * Docker, before the test resource could supply its database.
 */
public class TestDatabaseConfigSource implements ConfigSource {

    private static final String SWITCH = "quarkus.datasource.devservices.enabled";

    private final Map<String, String> values = PostgresTestDatabase.resolveServer() == null
            ? Map.of()
            : Map.of(SWITCH, "false");

    @Override
    public Set<String> getPropertyNames() {
        return values.keySet();
    }

    @Override
    public String getValue(String propertyName) {
        return values.get(propertyName);
    }

    @Override
    public String getName() {
        return "ziggurat-test-database";
    }

    /** Below application.properties: a module that configures Dev Services explicitly wins. */
    @Override
    public int getOrdinal() {
        return 150;
    }
}
