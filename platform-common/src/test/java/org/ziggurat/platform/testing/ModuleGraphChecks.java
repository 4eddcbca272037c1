package org.ziggurat.platform.testing;

import org.junit.jupiter.api.Test;


/**
 * The checks of a service's module graph ({@link ModuleGraph}), as JUnit tests: its packages
 * ({@link PackageGraphChecks}), and its layers: resources, services, repositories. A service's
 * {@code ArchitectureTest} extends this. Plain JUnit: no Quarkus starts.
 */
public abstract class ModuleGraphChecks extends PackageGraphChecks {

    @Test
    void repositoriesSpeakNoHttp() {
        graph().repositoriesSpeakNoHttp();
    }

    @Test
    void resourcesUseNoRepository() {
        graph().resourcesUseNoRepository();
    }

    @Test
    void resourcesCheckNoRights() {
        graph().resourcesCheckNoRights();
    }

    @Test
    void onlyRepositoriesOpenTransactions() {
        graph().onlyRepositoriesOpenTransactions();
    }
}
