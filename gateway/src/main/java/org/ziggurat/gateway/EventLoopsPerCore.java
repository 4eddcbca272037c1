package org.ziggurat.gateway;

import org.eclipse.microprofile.config.spi.ConfigSource;

import java.util.Map;
import java.util.Set;

/**
 * One event loop per core for the gateway, where Quarkus's default is two. The gateway's work is
 * socket reads and writes with little computing between them; with twice as many loops as cores
 * the loops took turns on each core, and a tenth of the gateway's CPU went to switching between
 * them (profile under the benchmark's load, 2 cores). Any other source (application.properties,
 * QUARKUS_VERTX_EVENT_LOOPS_POOL_SIZE, -D) overrides this one.
 */
public class EventLoopsPerCore implements ConfigSource {

    static final String PROPERTY = "quarkus.vertx.event-loops-pool-size";

    @Override
    public Map<String, String> getProperties() {
        return Map.of(PROPERTY, Integer.toString(Math.max(1, Runtime.getRuntime().availableProcessors())));
    }

    @Override
    public Set<String> getPropertyNames() {
        return Set.of(PROPERTY);
    }

    @Override
    public String getValue(String propertyName) {
        return PROPERTY.equals(propertyName) ? getProperties().get(PROPERTY) : null;
    }

    @Override
    public String getName() {
        return "gateway: one event loop per core";
    }

    /** Below application.properties (250), the environment (300) and system properties (400). */
    @Override
    public int getOrdinal() {
        return 50;
    }
}
