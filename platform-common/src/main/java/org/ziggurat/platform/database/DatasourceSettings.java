package org.ziggurat.platform.database;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a service LISTENs for notifications: a session of its own, straight to the primary, never
 * through the pool nor through PgBouncer. In transaction mode PgBouncer hands the server
 * connection to other clients between transactions, so a LISTEN made through it hears nothing, or
 * hears for someone else, while its heartbeat still succeeds; and a pooled connection is handed
 * to others as well.
 *
 * <p>The URL is {@code ziggurat.database.listen-url} when set; else the server of the JDBC URL,
 * which is Flyway's and so, in every deployment, the primary itself; else the reactive URL (one
 * instance straight to PostgreSQL, as in a test).
 */
public record DatasourceSettings(String listenUrl, Optional<String> username, Optional<String> password) {

    private static final Pattern JDBC = Pattern.compile("jdbc:postgresql://([^/?]+)/([^?]+)(?:\\?(.*))?");

    /** Empty when no URL at all is configured (Dev Services in a test, say, set them later). */
    public static Optional<DatasourceSettings> current() {
        Config config = ConfigProvider.getConfig();
        return listenUrl(config.getOptionalValue("ziggurat.database.listen-url", String.class),
                config.getOptionalValue("quarkus.datasource.jdbc.url", String.class),
                config.getOptionalValue("quarkus.datasource.reactive.url", String.class))
                .map(url -> new DatasourceSettings(url, config.getOptionalValue("quarkus.datasource.username", String.class),
                        config.getOptionalValue("quarkus.datasource.password", String.class)));
    }

    static Optional<String> listenUrl(Optional<String> explicit, Optional<String> jdbcUrl, Optional<String> reactiveUrl) {
        if (explicit.filter(u -> !u.isBlank()).isPresent()) {
            return explicit;
        }
        Optional<String> fromJdbc = jdbcUrl.flatMap(DatasourceSettings::fromJdbc);
        return fromJdbc.isPresent() ? fromJdbc : reactiveUrl.filter(u -> !u.isBlank());
    }

    /**
     * The reactive client's form of a JDBC URL's server and database. Of its parameters only
     * {@code sslmode} is kept: the others are the JDBC driver's own, and the reactive client would
     * send them to the server as session settings.
     */
    static Optional<String> fromJdbc(String jdbcUrl) {
        Matcher m = JDBC.matcher(jdbcUrl.strip());
        if (!m.matches()) {
            return Optional.empty();
        }
        String sslmode = null;
        if (m.group(3) != null) {
            for (String parameter : m.group(3).split("&")) {
                if (parameter.startsWith("sslmode=")) {
                    sslmode = parameter;
                }
            }
        }
        return Optional.of("postgresql://" + m.group(1) + "/" + m.group(2) + (sslmode == null ? "" : "?" + sslmode));
    }
}
