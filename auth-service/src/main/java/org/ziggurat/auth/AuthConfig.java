package org.ziggurat.auth;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Optional;

@ConfigMapping(prefix = "ziggurat.auth")
public interface AuthConfig {

    /** The issuer URL (RFC 8414): the public API base, where /oauth/** is served. */
    @WithDefault("http://localhost:8080/api")
    String issuer();

    @WithDefault("7200s")
    Duration accessTokenLifetime();

    @WithDefault("30d")
    Duration refreshTokenLifetime();

    @WithDefault("10m")
    Duration codeLifetime();

    /** How long one signing key of ID tokens signs before the next one takes over. */
    @WithDefault("30d")
    Duration signingKeyLifetime();

    /** How long before it signs a new key is published, so that relying parties have fetched it. */
    @WithDefault("2d")
    Duration signingKeyLead();

    @WithDefault("12h")
    Duration loginSessionLifetime();

    /** How long a device code and its user code wait for the person (RFC 8628 expires_in). */
    @WithDefault("10m")
    Duration deviceCodeLifetime();

    /** How often a device may poll the token endpoint at first (RFC 8628 interval); slow_down adds 5 s. */
    @WithDefault("5s")
    Duration devicePollInterval();

    /** Wrong user codes a signed-in browser session may enter before it ends. */
    @WithDefault("5")
    int userCodeAttempts();

    /**
     * How long a replica may keep using a client's row (secret hash, scopes, grants) after another
     * replica changed or deleted it; changes made through the same replica apply at once.
     */
    @WithDefault("5s")
    Duration clientCacheTtl();

    /**
     * How many live access tokens a replica keeps in memory for introspection (LiveAccessTokens);
     * 0 reads every one from the database.
     */
    @WithDefault("100000")
    int liveTokenCacheSize();

    /**
     * How long one is kept at most. Changes reach every replica at commit through PostgreSQL
     * notifications; this only bounds what a lost notification could leave behind.
     */
    @WithDefault("60s")
    Duration liveTokenCacheTtl();

    /**
     * How often the notification connection proves itself; after two silent periods and a second
     * more, introspection reads the database until it is back.
     */
    @WithDefault("1s")
    Duration liveTokenHeartbeat();

    /**
     * Refreshes that arrive on one event loop while this many groups of its refreshes are being
     * committed wait and are committed together (GroupCommit); 1 to 8.
     */
    @WithDefault("2")
    int refreshCommitsInFlight();

    /** The most refreshes committed together. */
    @WithDefault("32")
    int refreshCommitGroup();

    /** Base64 of at least 32 random bytes: the HMAC key under which tokens, codes and secrets are looked up. */
    String tokenHashKey();

    /** Base64 of 32 random bytes: the AES-GCM key of stored access-token values. */
    String tokenEncryptionKey();

    /** Dynamic client registration (RFC 7591). */
    Registration registration();

    interface Registration {
        /**
         * A secret that lets tools register themselves without a person's token (an RFC 7591
         * initial access token); unset, registering needs an access token with the admin scope.
         */
        Optional<String> initialAccessToken();

        /** The person who owns the applications registered with the initial access token. */
        Optional<Long> owner();
    }

    /** The gateway's confidential client, created or updated at start; it may introspect. */
    GatewayClient gatewayClient();

    interface GatewayClient {
        @WithDefault("ziggurat-gateway")
        String id();

        Optional<String> secret();
    }
}
