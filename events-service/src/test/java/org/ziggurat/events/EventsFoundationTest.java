package org.ziggurat.events;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import org.ziggurat.platform.testing.PlatformTestKeys;
import org.ziggurat.platform.testing.PostgresTestDatabase;
import org.ziggurat.platform.testing.ServiceFoundationChecks;

@QuarkusTest
@QuarkusTestResource(value = PostgresTestDatabase.class, initArgs = {
        @ResourceArg(name = "database", value = "ziggurat_test_events"),
        @ResourceArg(name = "schema", value = "events")})
@QuarkusTestResource(value = PlatformTestKeys.class, initArgs = @ResourceArg(name = "signer", value = "events-service"))
class EventsFoundationTest extends ServiceFoundationChecks {

    @Override
    protected String schema() {
        return "events";
    }
}
