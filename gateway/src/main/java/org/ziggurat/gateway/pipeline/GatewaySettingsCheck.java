package org.ziggurat.gateway.pipeline;

import org.ziggurat.gateway.GatewayConfig;

import jakarta.inject.Singleton;
import org.ziggurat.platform.readiness.SettingsCheck;
import org.ziggurat.platform.readiness.UnsafeSettings;

/**
 * What the gateway refuses to run in production with, beyond {@link ProductionReadiness}'s checks
 * of every mode: a public URL over plain HTTP (the callers' tokens would cross the network
 * readable), and the client secret of the tests, published with the code.
 */
@Singleton
public class GatewaySettingsCheck implements SettingsCheck {

    private final GatewayConfig config;

    GatewaySettingsCheck(GatewayConfig config) {
        this.config = config;
    }

    @Override
    public void check(UnsafeSettings settings) {
        settings.publicUrl("ziggurat.gateway.public-base-url", config.publicBaseUrl().toString());
        config.clientSecret().filter(UnsafeSettings.publishedValues("ziggurat.gateway.client-secret")::contains)
                .ifPresent(published -> settings.add("ziggurat.gateway.client-secret is a value published with the code "
                        + "(for tests): generate one"));
    }
}
