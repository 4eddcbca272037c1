package org.ziggurat.events;

import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.ModuleGraph;

import java.util.Map;
import java.util.Set;

import static java.util.Map.entry;
import static org.ziggurat.platform.testing.ModuleGraph.ROOT;

/**
 * The module graph inside events-service points one way: the data events ({@code data}) above the service's configuration. Plain JUnit: no Quarkus starts.
 */
class ArchitectureTest {

    static final Map<String, Set<String>> MAY_USE = Map.ofEntries(
            entry(ROOT, Set.of()),
            entry("data", Set.of(ROOT)));

    private static final ModuleGraph GRAPH = ModuleGraph.of("org.ziggurat.events");

    @Test
    void everyPackageUsesOnlyThePackagesBelowIt() {
        GRAPH.usesOnly(MAY_USE);
    }

    @Test
    void thePackagesHaveNoCycles() {
        GRAPH.hasNoCycles();
    }

    @Test
    void repositoriesSpeakNoHttp() {
        GRAPH.repositoriesSpeakNoHttp();
    }
}
