package org.ziggurat.auth;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import org.ziggurat.platform.testing.PlatformTestKeys;
import org.ziggurat.platform.testing.PostgresTestDatabase;

/** The module's test resources: one database, one set of keys, one directory double, one set of upstream providers, for every test class. */
@QuarkusTestResource(value = PostgresTestDatabase.class, initArgs = {
        @ResourceArg(name = "database", value = "ziggurat_test_auth"),
        @ResourceArg(name = "schema", value = "auth")})
@QuarkusTestResource(value = PlatformTestKeys.class, initArgs = @ResourceArg(name = "signer", value = "auth-service"))
@QuarkusTestResource(DirectoryDouble.class)
@QuarkusTestResource(UpstreamDouble.class)
@QuarkusTestResource(org.ziggurat.auth.audit.EventsDouble.class)
public final class AuthTestResources {

    private AuthTestResources() {
    }
}
