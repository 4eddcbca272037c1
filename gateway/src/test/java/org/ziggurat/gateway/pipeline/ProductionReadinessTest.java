package org.ziggurat.gateway.pipeline;

import org.ziggurat.gateway.route.PublicRoutes;

import io.quarkus.runtime.LaunchMode;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The settings the gateway refuses to start with, said all at once. */
class ProductionReadinessTest {

    private static final URI BASE = URI.create("https://api.example.org/api");
    private static final Map<String, URI> UPSTREAMS = Map.of(PublicRoutes.AUTH, URI.create("http://auth:8081"),
            PublicRoutes.DIRECTORY, URI.create("http://directory:8082"), PublicRoutes.VOCAB, URI.create("http://vocab:8083"),
            PublicRoutes.EVENTS, URI.create("http://events:8084"));
    private static final Optional<String> SECRET = Optional.of("s".repeat(32));

    @Test
    void goodSettingsStart() {
        assertEquals(List.of(), ProductionReadiness.problems(BASE, UPSTREAMS, SECRET, LaunchMode.NORMAL));
    }

    @Test
    void aProductionRunNeedsTheClientSecret() {
        assertEquals(1, ProductionReadiness.problems(BASE, UPSTREAMS, Optional.empty(), LaunchMode.NORMAL).size());
        assertEquals(1, ProductionReadiness.problems(BASE, UPSTREAMS, Optional.of("short"), LaunchMode.NORMAL).size());
        // Tests and development get theirs from their own settings, or none.
        assertEquals(List.of(), ProductionReadiness.problems(BASE, UPSTREAMS, Optional.empty(), LaunchMode.TEST));
    }

    @Test
    void everyProblemIsSaidAtOnce() {
        List<String> problems = ProductionReadiness.problems(URI.create("/api"), Map.of(), Optional.empty(), LaunchMode.NORMAL);
        assertEquals(6, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("public-base-url"));
        assertTrue(problems.stream().anyMatch(p -> p.contains("upstreams." + PublicRoutes.EVENTS)));
    }

    @Test
    void aBaseUrlIsAbsoluteHttp() {
        assertEquals(1, ProductionReadiness.problems(URI.create("ftp://api.example.org/"), UPSTREAMS, SECRET,
                LaunchMode.DEVELOPMENT).size());
    }
}
