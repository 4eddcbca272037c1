package org.ziggurat.directory;

import io.quarkus.test.junit.QuarkusTest;
import org.ziggurat.platform.testing.ServiceFoundationChecks;

@QuarkusTest
class DirectoryFoundationTest extends ServiceFoundationChecks {

    @Override
    protected String schema() {
        return "directory";
    }
}
