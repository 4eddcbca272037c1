package org.ziggurat.gateway;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import org.ziggurat.platform.testing.PlatformTestKeys;

/** The module's test resources, for every test class: upstream stand-ins and the gateway's signing key. */
@QuarkusTestResource(UpstreamStubs.class)
@QuarkusTestResource(value = PlatformTestKeys.class, initArgs = @ResourceArg(name = "signer", value = "gateway"))
public final class GatewayTestResources {

    private GatewayTestResources() {
    }
}
