package org.ziggurat.vocab;

import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.ModuleGraph;

import java.util.Map;
import java.util.Set;

import static java.util.Map.entry;
import static org.ziggurat.platform.testing.ModuleGraph.ROOT;

/**
 * The module graph inside vocab-service points one way: schemes at the bottom; concepts, which belong to a scheme, above them; RDF (reading and writing SKOS) above both, and the scheme's export stated by schemes ({@code SchemeExport}) and written there; imports on top. Plain JUnit: no Quarkus starts.
 */
class ArchitectureTest {

    static final Map<String, Set<String>> MAY_USE = Map.ofEntries(
            entry(ROOT, Set.of()),
            entry("schemes", Set.of(ROOT)),
            entry("concepts", Set.of(ROOT, "schemes")),
            entry("rdf", Set.of(ROOT, "schemes", "concepts")),
            entry("imports", Set.of(ROOT, "schemes", "concepts", "rdf")));

    private static final ModuleGraph GRAPH = ModuleGraph.of("org.ziggurat.vocab");

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
