package org.ziggurat.platform.structure;

import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.ModuleGraph;

/**
 * platform-common's packages have no cycle: {@code problem} (the answer's shape) uses
 * {@code logging} (the request id), and {@code http} uses {@code problem}, never back. Plain
 * JUnit: reads the compiled classes.
 */
class PlatformCommonStructureTest {

    @Test
    void thePackagesHaveNoCycle() {
        ModuleGraph.of("org.ziggurat.platform").hasNoCycles();
    }
}
