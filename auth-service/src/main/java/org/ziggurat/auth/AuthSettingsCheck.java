package org.ziggurat.auth;

import jakarta.inject.Singleton;
import org.ziggurat.platform.readiness.SettingsCheck;
import org.ziggurat.platform.readiness.UnsafeSettings;

import java.util.Optional;

/**
 * What auth-service refuses to run in production with: an issuer that clients would reach over
 * plain HTTP, the token keys or the gateway's secret of development and tests (published with the
 * code), or keys too short to be 32 random bytes.
 */
@Singleton
public class AuthSettingsCheck implements SettingsCheck {

    /** Base64 of 32 bytes, without padding. */
    private static final int KEY_CHARS = 43;

    private final AuthConfig config;

    AuthSettingsCheck(AuthConfig config) {
        this.config = config;
    }

    @Override
    public void check(UnsafeSettings settings) {
        settings.publicUrl("ziggurat.auth.issuer", config.issuer());
        settings.secret("ziggurat.auth.token-hash-key", Optional.of(config.tokenHashKey()), KEY_CHARS,
                UnsafeSettings.publishedValues("ziggurat.auth.token-hash-key"));
        settings.secret("ziggurat.auth.token-encryption-key", Optional.of(config.tokenEncryptionKey()), KEY_CHARS,
                UnsafeSettings.publishedValues("ziggurat.auth.token-encryption-key"));
        settings.secret("ziggurat.auth.gateway-client.secret", config.gatewayClient().secret(), 32,
                UnsafeSettings.publishedValues("ziggurat.auth.gateway-client.secret"));
        if (config.registration().initialAccessToken().isPresent()) {
            settings.secret("ziggurat.auth.registration.initial-access-token", config.registration().initialAccessToken(), 32,
                    UnsafeSettings.publishedValues("ziggurat.auth.registration.initial-access-token"));
            if (config.registration().owner().isEmpty()) {
                throw new IllegalStateException("ziggurat.auth.registration.initial-access-token needs "
                        + "ziggurat.auth.registration.owner: the person who owns what registers with it");
            }
        }
    }
}
