package org.ziggurat.platform.testing;

import org.eclipse.microprofile.config.ConfigProvider;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/** A plain JDBC connection to the database of the service under test, as its configuration names it. */
public final class ServiceDatabase {

    private ServiceDatabase() {
    }

    public static Connection connect() throws SQLException {
        var config = ConfigProvider.getConfig();
        return DriverManager.getConnection(config.getValue("quarkus.datasource.jdbc.url", String.class),
                config.getOptionalValue("quarkus.datasource.username", String.class).orElse("postgres"),
                config.getOptionalValue("quarkus.datasource.password", String.class).orElse(""));
    }
}
