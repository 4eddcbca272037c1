package org.ziggurat.directory;

import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.ModuleGraph;

import java.util.Map;
import java.util.Set;

import static java.util.Map.entry;
import static org.ziggurat.platform.testing.ModuleGraph.ROOT;

/**
 * The module graph inside directory-service points one way: the HTTP resources ({@code api},
 * {@code internal}) on top; organizations, which have people as members, above people; people
 * above the password hashing ({@code security}). Plain JUnit: no Quarkus starts.
 */
class ArchitectureTest {

    static final Map<String, Set<String>> MAY_USE = Map.ofEntries(
            entry(ROOT, Set.of()),
            entry("security", Set.of(ROOT)),
            entry("people", Set.of(ROOT, "security")),
            entry("organizations", Set.of(ROOT, "people", "security")),
            entry("internal", Set.of(ROOT, "people", "organizations", "security")),
            entry("api", Set.of(ROOT, "people", "organizations", "security")));

    private static final ModuleGraph GRAPH = ModuleGraph.of("org.ziggurat.directory");

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
