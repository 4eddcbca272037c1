package org.ziggurat.auth.clients;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.crypto.TokenCrypto;

/** At start: the gateway's confidential client, with the right to introspect any token, from settings. */
@ApplicationScoped
public class PlatformClients {

    private static final Logger LOG = Logger.getLogger(PlatformClients.class);

    private final AuthConfig config;
    private final ApplicationRepository applications;
    private final TokenCrypto crypto;

    PlatformClients(AuthConfig config, ApplicationRepository applications, TokenCrypto crypto) {
        this.config = config;
        this.applications = applications;
        this.crypto = crypto;
    }

    void provision(@Observes StartupEvent start) {
        config.gatewayClient().secret().ifPresentOrElse(secret -> {
            if (secret.length() < 32) {
                throw new IllegalStateException("ziggurat.auth.gateway-client.secret must be at least 32 characters");
            }
            applications.upsertPlatformClient(config.gatewayClient().id(), "Ziggurat gateway", crypto.hash(secret), true)
                    .await().indefinitely();
            LOG.infof("gateway client %s provisioned", config.gatewayClient().id());
        }, () -> LOG.warn("ziggurat.auth.gateway-client.secret is not set: no client may introspect every token"));
    }
}
