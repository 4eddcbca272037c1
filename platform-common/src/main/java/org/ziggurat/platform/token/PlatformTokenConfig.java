package org.ziggurat.platform.token;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Optional;

/**
 * How this process signs platform tokens. Verification is configured through the
 * {@code mp.jwt.verify.*} settings, whose defaults follow these (platform-common's
 * {@code META-INF/microprofile-config.properties}).
 */
@ConfigMapping(prefix = "ziggurat.platform-token")
public interface PlatformTokenConfig {

    /** The {@code iss} of every platform token. */
    @WithDefault("urn:ziggurat:platform")
    String issuer();

    /** The {@code aud} of every platform token. */
    @WithDefault("urn:ziggurat:services")
    String audience();

    /** How long a platform token lives: long enough for one request and its retries, no longer. */
    @WithDefault("60s")
    Duration lifetime();

    /** This process's signer name (a service name, or {@code gateway}); the key id starts with it. */
    Optional<String> signer();

    /** Path of this signer's private key (PKCS#8 PEM), as {@link PlatformKeys} writes it. */
    Optional<String> signingKey();

    /** The only signer whose tokens may state a user identity. */
    @WithDefault("gateway")
    String userSigner();
}
