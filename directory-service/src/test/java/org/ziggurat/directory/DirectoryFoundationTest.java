package org.ziggurat.directory;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import org.ziggurat.platform.testing.PlatformTestKeys;
import org.ziggurat.platform.testing.PostgresTestDatabase;
import org.ziggurat.platform.testing.ServiceFoundationChecks;

@QuarkusTest
@QuarkusTestResource(value = PostgresTestDatabase.class, initArgs = {
        @ResourceArg(name = "database", value = "ziggurat_test_directory"),
        @ResourceArg(name = "schema", value = "directory")})
@QuarkusTestResource(value = PlatformTestKeys.class, initArgs = @ResourceArg(name = "signer", value = "directory-service"))
class DirectoryFoundationTest extends ServiceFoundationChecks {

    @Override
    protected String schema() {
        return "directory";
    }
}
