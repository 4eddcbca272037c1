package org.ziggurat.gateway;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

@ConfigMapping(prefix = "ziggurat.gateway")
public interface GatewayConfig {

    /**
     * The public base URL of the API (its path contains {@code /api}). Services build every
     * {@code url} from it, through the forwarded headers the gateway sets.
     */
    @WithDefault("http://localhost:8080/api")
    URI publicBaseUrl();

    /** Base URL of each service by module name: auth-service, directory-service, vocab-service, events-service. */
    Map<String, URI> upstreams();

    /** How long to wait for a connection to a service before answering 503. */
    @WithDefault("1s")
    Duration connectTimeout();

    /** How long a service may stay silent during one exchange before answering 504. */
    @WithDefault("30s")
    Duration upstreamTimeout();

    /** Connections kept per service. */
    @WithDefault("64")
    int maxConnectionsPerService();
}
