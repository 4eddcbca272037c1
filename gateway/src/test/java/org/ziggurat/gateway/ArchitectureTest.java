package org.ziggurat.gateway;

import org.ziggurat.platform.testing.PackageGraphChecks;

import java.util.Map;
import java.util.Set;

import static java.util.Map.entry;
import static org.ziggurat.platform.testing.ModuleGraph.ROOT;

/**
 * The gateway's feature packages point one way (gateway/README.md, "Inside"): its settings at
 * the root; who calls ({@code identity}: the access token, the platform token, the caller's
 * address); where a request goes ({@code route}: public routes, CORS, the services and their
 * streams); how much a caller may ({@code limits}); the access log; the merged API reference; and
 * on top the {@code pipeline} that takes every request through them. Plain JUnit: no Quarkus
 * starts.
 */
class ArchitectureTest extends PackageGraphChecks {

    static final Map<String, Set<String>> MAY_USE = Map.ofEntries(
            entry(ROOT, Set.of()),
            entry("identity", Set.of(ROOT)),
            entry("route", Set.of(ROOT, "identity")),
            entry("limits", Set.of(ROOT)),
            entry("accesslog", Set.of("identity")),
            entry("reference", Set.of(ROOT, "route", "limits")),
            entry("pipeline", Set.of(ROOT, "identity", "route", "limits", "accesslog", "reference")));

    @Override
    protected String root() {
        return "org.ziggurat.gateway";
    }

    @Override
    protected Map<String, Set<String>> mayUse() {
        return MAY_USE;
    }
}
