package org.ziggurat.gateway.pipeline;

import org.ziggurat.gateway.GatewayConfig;
import org.ziggurat.gateway.route.PublicRoutes;

import io.quarkus.runtime.LaunchMode;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The settings the gateway refuses to start with, all said at once. In every mode: a public base
 * URL that is not an absolute http(s) URL, a service without an upstream. In production (a
 * packaged run): no client secret at auth-service of at least 32 characters (every token would
 * fail introspection). CORS allows any origin by default on purpose: the API takes bearer tokens,
 * never cookies, and answers without credentials mode, so another site's page cannot act as the
 * caller ({@code Cors}).
 */
final class ProductionReadiness {

    private ProductionReadiness() {
    }

    /** What is wrong with these settings for this launch mode; empty when nothing is. */
    static List<String> problems(URI base, Map<String, URI> upstreams, Optional<String> clientSecret, LaunchMode mode) {
        List<String> problems = new ArrayList<>();
        boolean absolute = base.isAbsolute() && base.getHost() != null && base.getScheme().matches("https?");
        if (!absolute) {
            problems.add("ziggurat.gateway.public-base-url must be an absolute http(s) URL, not '" + base + "'");
        }
        for (String service : List.of(PublicRoutes.AUTH, PublicRoutes.DIRECTORY, PublicRoutes.VOCAB, PublicRoutes.EVENTS)) {
            if (upstreams.get(service) == null) {
                problems.add("ziggurat.gateway.upstreams." + service + " is not set");
            }
        }
        if (mode == LaunchMode.NORMAL) {
            if (clientSecret.map(String::length).orElse(0) < 32) {
                problems.add("ziggurat.gateway.client-secret (the gateway's secret at auth-service, at least 32 characters) "
                        + "is not set");
            }
        }
        return problems;
    }

    /** Refuses to start when anything is wrong. */
    static void require(GatewayConfig config, LaunchMode mode) {
        List<String> problems = problems(config.publicBaseUrl(), config.upstreams(), config.clientSecret(), mode);
        if (!problems.isEmpty()) {
            throw new IllegalStateException("the gateway's settings are not safe to run with: " + String.join("; ", problems));
        }
    }
}
