package org.ziggurat.auth;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import org.ziggurat.platform.testing.PlatformTestKeys;
import org.ziggurat.platform.testing.PostgresTestDatabase;
import org.ziggurat.platform.testing.ServiceFoundationChecks;

@QuarkusTest
@QuarkusTestResource(value = PostgresTestDatabase.class, initArgs = {
        @ResourceArg(name = "database", value = "ziggurat_test_auth"),
        @ResourceArg(name = "schema", value = "auth")})
@QuarkusTestResource(value = PlatformTestKeys.class, initArgs = @ResourceArg(name = "signer", value = "auth-service"))
class AuthFoundationTest extends ServiceFoundationChecks {

    @Override
    protected String schema() {
        return "auth";
    }
}
