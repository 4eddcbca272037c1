package org.ziggurat.platform.database;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Where a service LISTENs: never through the pooler that the reactive URL names in production. */
class DatasourceSettingsTest {

    static final Optional<String> POOLER = Optional.of("postgresql://ziggurat-db-pooler-rw:5432/ziggurat");
    static final Optional<String> PRIMARY_JDBC = Optional.of("jdbc:postgresql://ziggurat-db-rw:5432/ziggurat");

    @Test
    void theExplicitSettingComesFirst() {
        assertEquals(Optional.of("postgresql://listen.example:5432/ziggurat"), DatasourceSettings.listenUrl(
                Optional.of("postgresql://listen.example:5432/ziggurat"), PRIMARY_JDBC, POOLER));
        assertEquals(Optional.of("postgresql://ziggurat-db-rw:5432/ziggurat"),
                DatasourceSettings.listenUrl(Optional.of("  "), PRIMARY_JDBC, POOLER), "a blank setting is none");
    }

    @Test
    void elseTheServerFlywayTalksToNotThePooler() {
        assertEquals(Optional.of("postgresql://ziggurat-db-rw:5432/ziggurat"),
                DatasourceSettings.listenUrl(Optional.empty(), PRIMARY_JDBC, POOLER));
        assertEquals(Optional.of("postgresql://db:5432/ziggurat?sslmode=require"), DatasourceSettings.listenUrl(Optional.empty(),
                Optional.of("jdbc:postgresql://db:5432/ziggurat?ApplicationName=x&sslmode=require&prepareThreshold=0"), POOLER),
                "only sslmode of the JDBC driver's parameters");
        assertEquals(Optional.of("postgresql://[::1]:6432/z"), DatasourceSettings.fromJdbc("jdbc:postgresql://[::1]:6432/z"));
    }

    @Test
    void elseTheReactiveUrlAsInATestWithOneInstance() {
        assertEquals(POOLER, DatasourceSettings.listenUrl(Optional.empty(), Optional.empty(), POOLER));
        assertEquals(POOLER, DatasourceSettings.listenUrl(Optional.empty(), Optional.of("jdbc:mysql://db:3306/ziggurat"), POOLER),
                "a JDBC URL of no PostgreSQL server names none");
        assertEquals(Optional.empty(), DatasourceSettings.listenUrl(Optional.empty(), Optional.empty(), Optional.empty()));
    }
}
