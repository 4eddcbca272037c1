package org.ziggurat.events;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import org.ziggurat.platform.testing.PlatformTestKeys;
import org.ziggurat.platform.testing.PostgresTestDatabase;

/** The module's test resources: one database, one set of keys, one directory double, for every test class. */
@QuarkusTestResource(value = PostgresTestDatabase.class, initArgs = {
        @ResourceArg(name = "database", value = "ziggurat_test_events"),
        @ResourceArg(name = "schema", value = "events")})
@QuarkusTestResource(value = PlatformTestKeys.class, initArgs = @ResourceArg(name = "signer", value = "events-service"))
@QuarkusTestResource(org.ziggurat.platform.testing.NamespaceDirectoryDouble.class)
public final class EventsTestResources {

    private EventsTestResources() {
    }
}
