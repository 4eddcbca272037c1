package org.ziggurat.platform.testing;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

/**
 * The package graph of a module ({@link ModuleGraph}), as JUnit tests: a module's
 * {@code ArchitectureTest} extends this (a service through {@link ModuleGraphChecks}) and states
 * its root package and which of its packages may use which. Plain JUnit: no Quarkus starts.
 */
public abstract class PackageGraphChecks {

    /** The module's root package. */
    protected abstract String root();

    /** Package (the first segment under the root, {@link ModuleGraph#ROOT} for the root) → the packages it may use. */
    protected abstract Map<String, Set<String>> mayUse();

    protected ModuleGraph graph() {
        return ModuleGraph.of(root());
    }

    @Test
    void everyPackageUsesOnlyThePackagesBelowIt() {
        graph().usesOnly(mayUse());
    }

    @Test
    void thePackagesHaveNoCycles() {
        graph().hasNoCycles();
    }
}
