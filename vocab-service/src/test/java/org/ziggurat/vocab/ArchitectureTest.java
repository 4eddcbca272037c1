package org.ziggurat.vocab;

import org.ziggurat.platform.testing.ModuleGraphChecks;

import java.util.Map;
import java.util.Set;

import static java.util.Map.entry;
import static org.ziggurat.platform.testing.ModuleGraph.ROOT;

/**
 * The module graph inside vocab-service points one way: schemes at the bottom; concepts, which belong to a scheme, above them; RDF (reading and writing SKOS) above both, and the scheme's export stated by schemes ({@code SchemeExport}) and written there; imports on top. Plain JUnit: no Quarkus starts.
 */
class ArchitectureTest extends ModuleGraphChecks {

    static final Map<String, Set<String>> MAY_USE = Map.ofEntries(
            entry(ROOT, Set.of()),
            entry("schemes", Set.of(ROOT)),
            entry("concepts", Set.of(ROOT, "schemes")),
            entry("rdf", Set.of(ROOT, "schemes", "concepts")),
            entry("imports", Set.of(ROOT, "schemes", "concepts", "rdf")));

    @Override
    protected String root() {
        return "org.ziggurat.vocab";
    }

    @Override
    protected Map<String, Set<String>> mayUse() {
        return MAY_USE;
    }
}
