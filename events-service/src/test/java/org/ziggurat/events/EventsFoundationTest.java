package org.ziggurat.events;

import io.quarkus.test.junit.QuarkusTest;
import org.ziggurat.platform.testing.ServiceFoundationChecks;

@QuarkusTest
class EventsFoundationTest extends ServiceFoundationChecks {

    @Override
    protected String schema() {
        return "events";
    }
}
