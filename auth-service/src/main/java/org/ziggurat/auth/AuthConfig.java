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

    /**
     * WebAuthn's relying party id: the domain passkeys are bound to (default: the issuer's host).
     * Changing it later orphans every registered passkey.
     */
    Optional<String> webauthnRpId();

    /** The origins a WebAuthn ceremony may come from (default: the issuer's origin). */
    Optional<java.util.List<String>> webauthnOrigins();

    @WithDefault("30d")
    Duration refreshTokenLifetime();

    /**
     * How long one authorization lasts from its grant, however often its refresh tokens rotate
     * (ASVS 5.0 V10.4.8); an application may set a shorter one of its own.
     */
    @WithDefault("90d")
    Duration refreshTokenAbsoluteLifetime();

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

    /**
     * How long after a sign-in its session may add a way into the account (a passkey, an
     * authenticator app, a linked identity) or turn a protection off without the password again
     * ({@code RecentSignIns}).
     */
    @WithDefault("10m")
    Duration recentSignIn();

    /**
     * How often expired tokens, codes, device authorizations and sessions leave the database
     * ({@code TokenPurge}, which reads it); {@code off} for never, as in the tests, which purge
     * themselves.
     */
    @WithDefault("15m")
    String purgeEvery();

    /** How long a device code and its user code wait for the person (RFC 8628 expires_in). */
    @WithDefault("10m")
    Duration deviceCodeLifetime();

    /**
     * Device codes of one client waiting for people at most; past it, device authorization answers
     * slow_down (429). A public client needs only its id to store one.
     */
    @WithDefault("1000")
    int liveDeviceCodesPerClient();

    /** Pushed requests (RFC 9126) of one client live at most; past it, slow_down (429). */
    @WithDefault("1000")
    int livePushedRequestsPerClient();

    /** How often a device may poll the token endpoint at first (RFC 8628 interval); slow_down adds 5 s. */
    @WithDefault("5s")
    Duration devicePollInterval();

    /**
     * Wrong user codes a signed-in browser session may enter on the device form before the form
     * is locked for {@link #userCodeLock()}; the session itself goes on.
     */
    @WithDefault("5")
    int userCodeAttempts();

    /** How long the device form stays locked for a session after too many wrong codes. */
    @WithDefault("15m")
    Duration userCodeLock();

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

    /** The same for token issues outside a transaction (client_credentials, token exchange); 1 to 8. */
    @WithDefault("2")
    int issueCommitsInFlight();

    /** The most token issues committed together. */
    @WithDefault("32")
    int issueCommitGroup();

    /**
     * The person ids of the platform's operators: they mark applications verified (PATCH
     * /applications/{id} {"verified": true}) and may give one the platform's own name.
     */
    Optional<java.util.Set<Long>> operators();

    /**
     * The platform's own name, as its pages say it: no application of anyone else may take it, nor
     * one that reads the same (case, spaces, look-alike characters aside).
     */
    @WithDefault("Ziggurat")
    String platformName();

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

    /**
     * The resource indicator (RFC 8707) of the platform's own API, the audience of every token
     * that names no other resource (default: the issuer, under which the API is served).
     */
    Optional<String> platformResource();

    /**
     * Resource servers outside the platform's API that the operator registered (RFC 8707): a
     * token may be asked for one with {@code resource}, and only it accepts that token.
     */
    java.util.Map<String, ResourceServer> resourceServers();

    interface ResourceServer {
        /** Its resource indicator: an absolute URI without a fragment. */
        String identifier();

        /** The platform's scopes it understands: a token for it carries no others. */
        java.util.List<String> scopes();

        /**
         * The client_id the service itself uses, if it has one: a person's token meant for it may
         * be exchanged by that client (RFC 8693), when the application allows exchange.
         */
        Optional<String> clientId();

        /** How long its tokens live, when shorter than the platform's access-token lifetime. */
        Optional<Duration> accessTokenLifetime();

        /** The access tokens it takes: jwt (RFC 9068) or opaque, whatever the client chose; unset: the client's choice. */
        Optional<String> accessTokenFormat();
    }

    /** The platform API's access tokens: jwt or opaque for every client; unset, each application's access_token_format. */
    Optional<String> platformAccessTokenFormat();

    /** How often a replica reads the registered resource servers again while it does not hear their changes (LISTEN). */
    @WithDefault("5s")
    Duration resourceServerRefreshEvery();

    /** The algorithm of JWT access tokens (RFC 9068), one of the signing key series. */
    @WithDefault("ES256")
    String accessTokenAlg();

    /** DPoP (RFC 9449) at the token endpoint. */
    Dpop dpop();

    interface Dpop {
        /** How far a proof's iat may be from now, either way (the proof is kept this long for replay). */
        @WithDefault("60s")
        Duration proofWindow();

        /**
         * Whether every proof must carry a nonce this server made (RFC 9449 §8); a proof without
         * one is answered use_dpop_nonce with a fresh one.
         */
        @WithDefault("false")
        boolean requireNonce();

        /** How long a nonce is taken after it was made. */
        @WithDefault("5m")
        Duration nonceLifetime();
    }

    /** The gateway's confidential client, created or updated at start; it may introspect. */
    GatewayClient gatewayClient();

    interface GatewayClient {
        @WithDefault("ziggurat-gateway")
        String id();

        Optional<String> secret();
    }
}
