package org.ziggurat.vocab;

import io.quarkus.test.junit.QuarkusTest;
import org.ziggurat.platform.testing.ServiceFoundationChecks;

@QuarkusTest
class VocabFoundationTest extends ServiceFoundationChecks {

    @Override
    protected String schema() {
        return "vocab";
    }
}
