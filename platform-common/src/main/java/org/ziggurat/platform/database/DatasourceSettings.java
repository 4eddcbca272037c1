package org.ziggurat.platform.database;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import java.util.Optional;

/**
 * The service's own database as its reactive datasource is configured, for a connection of its
 * own beside the pool: a LISTEN connection must not be a pooled one, which is handed to others.
 */
public record DatasourceSettings(String reactiveUrl, Optional<String> username, Optional<String> password) {

    /** Empty when no reactive URL is configured (Dev Services in a test, say, set it later). */
    public static Optional<DatasourceSettings> current() {
        Config config = ConfigProvider.getConfig();
        return config.getOptionalValue("quarkus.datasource.reactive.url", String.class)
                .map(url -> new DatasourceSettings(url, config.getOptionalValue("quarkus.datasource.username", String.class),
                        config.getOptionalValue("quarkus.datasource.password", String.class)));
    }
}
