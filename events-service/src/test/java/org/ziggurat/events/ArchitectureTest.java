package org.ziggurat.events;

import org.ziggurat.platform.testing.ModuleGraphChecks;

import java.util.Map;
import java.util.Set;

import static java.util.Map.entry;
import static org.ziggurat.platform.testing.ModuleGraph.ROOT;

/**
 * The module graph inside events-service points one way: the data events ({@code data}) above the service's configuration. Plain JUnit: no Quarkus starts.
 */
class ArchitectureTest extends ModuleGraphChecks {

    static final Map<String, Set<String>> MAY_USE = Map.ofEntries(
            entry(ROOT, Set.of()),
            entry("data", Set.of(ROOT)));

    @Override
    protected String root() {
        return "org.ziggurat.events";
    }

    @Override
    protected Map<String, Set<String>> mayUse() {
        return MAY_USE;
    }
}
