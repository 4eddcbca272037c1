package org.ziggurat.platform.readiness;

import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

import java.util.Optional;

/**
 * Refuses a production start (a packaged run) with unsafe settings, all said at once: the
 * platform's own (this process's key for signing platform tokens, the key set it verifies them
 * with) and each service's {@link SettingsCheck}. Development and tests bring their own keys and
 * loopback URLs, and are not checked.
 */
@Singleton
public class StartupChecks {

    private static final Logger LOG = Logger.getLogger(StartupChecks.class);

    /** First of the start-up observers: before any of them reaches the database or another service. */
    void onStart(@Observes @Priority(1) StartupEvent event, Config config, Instance<SettingsCheck> checks) {
        if (LaunchMode.current() != LaunchMode.NORMAL) {
            return;
        }
        UnsafeSettings settings = new UnsafeSettings(
                config.getOptionalValue(UnsafeSettings.ALLOW_PLAIN_HTTP, Boolean.class).orElse(false));
        platform(config, settings);
        checks.forEach(check -> check.check(settings));
        try {
            settings.requireNone(config.getOptionalValue("quarkus.application.name", String.class).orElse("this service"));
        } catch (IllegalStateException refused) {
            // Straight to standard error as well: a start that fails this early sometimes loses the
            // console log's buffered lines (seen in about one start of eight), and the operator must
            // learn why the process exited.
            System.err.println(refused.getMessage());
            System.err.flush();
            throw refused;
        }
        LOG.debugf("settings checked: nothing unsafe");
    }

    /** What every module needs: each signs platform tokens with its own key and verifies them with the JWKS. */
    static void platform(Config config, UnsafeSettings settings) {
        Optional<String> signer = config.getOptionalValue("ziggurat.platform-token.signer", String.class);
        if (signer.isEmpty()) {
            settings.add("ziggurat.platform-token.signer is not set");
        }
        settings.readableFile("ziggurat.platform-token.signing-key",
                config.getOptionalValue("ziggurat.platform-token.signing-key", String.class));
        settings.readableFile("mp.jwt.verify.publickey.location",
                config.getOptionalValue("mp.jwt.verify.publickey.location", String.class));
    }
}
