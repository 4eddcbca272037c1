package org.ziggurat.events;

import org.ziggurat.platform.testing.ModuleGraphChecks;

import java.util.Map;
import java.util.Set;

import static java.util.Map.entry;
import static org.ziggurat.platform.testing.ModuleGraph.ROOT;

/**
 * The module graph inside events-service points one way: the data events ({@code data}: recorded,
 * listed, read) above the service's configuration, and following them as they are written
 * ({@code streams}: the server-sent events, from any replica) above both, as are the webhooks that
 * send them elsewhere ({@code webhooks}: subscriptions, the delivery outbox). Plain JUnit: no Quarkus
 * starts.
 */
class ArchitectureTest extends ModuleGraphChecks {

    static final Map<String, Set<String>> MAY_USE = Map.ofEntries(
            entry(ROOT, Set.of()),
            entry("data", Set.of(ROOT)),
            entry("streams", Set.of(ROOT, "data")),
            entry("people", Set.of(ROOT)),
            entry("audit", Set.of(ROOT)),
            entry("webhooks", Set.of(ROOT, "data", "audit")));

    @Override
    protected String root() {
        return "org.ziggurat.events";
    }

    @Override
    protected Map<String, Set<String>> mayUse() {
        return MAY_USE;
    }
}
