package org.ziggurat.auth;

import io.quarkus.test.junit.QuarkusTest;
import org.ziggurat.platform.testing.ServiceFoundationChecks;

@QuarkusTest
class AuthFoundationTest extends ServiceFoundationChecks {

    @Override
    protected String schema() {
        return "auth";
    }
}
