package org.ziggurat.gateway.route;

import org.ziggurat.gateway.GatewayConfig;
import org.ziggurat.gateway.ProtectedResource;

import java.util.Map;

/**
 * Which resource (RFC 8707) each service's routes are: the platform API's, unless the operator
 * named another for the service ({@code ziggurat.gateway.route-resources.<service>}). A token is
 * accepted only by the routes of a resource its audience names.
 */
public final class RouteResources {

    private final String platform;
    private final Map<String, String> byService;

    public RouteResources(GatewayConfig config) {
        this.platform = ProtectedResource.of(config).identifier();
        this.byService = Map.copyOf(config.routeResources());
        for (String service : byService.keySet()) {
            if (!config.upstreams().containsKey(service)) {
                throw new IllegalStateException("ziggurat.gateway.route-resources." + service + ": no such service "
                        + config.upstreams().keySet());
            }
        }
    }

    /** The platform API's identifier. */
    public String platform() {
        return platform;
    }

    /** The resource a service's routes are. */
    public String of(String service) {
        return byService.getOrDefault(service, platform);
    }
}
