package org.ziggurat.gateway;

import java.util.List;
import java.util.Optional;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

@ConfigMapping(prefix = "ziggurat.gateway")
public interface GatewayConfig {

    /**
     * The public base URL of the API (its path contains {@code /api}). Services build every
     * {@code url} from it, through the forwarded headers the gateway sets.
     */
    @WithDefault("http://localhost:8080/api")
    URI publicBaseUrl();

    /** Base URL of each service by module name: auth-service, directory-service, vocab-service, events-service. */
    Map<String, URI> upstreams();

    /** How long to wait for a connection to a service before answering 503. */
    @WithDefault("1s")
    Duration connectTimeout();

    /** How long a service may stay silent during one exchange before answering 504. */
    @WithDefault("30s")
    Duration upstreamTimeout();

    /**
     * How long a pooled connection to a service may stay idle before the gateway closes it (whole
     * seconds; 0 keeps it until the service closes it). It must be shorter than the idle timeout of
     * everything between the gateway and the services: a balancer that closes an idle connection
     * first may close it just as the gateway sends a request on it, and a request that may not be
     * sent twice is then a 503.
     */
    @WithDefault("30s")
    Duration upstreamKeepAlive();

    /**
     * The resource indicator (RFC 8707) of the platform's API, which a token's audience must name
     * (default: the public base URL, as auth-service's issuer); a token that names none is the
     * platform's.
     */
    Optional<String> resource();

    /**
     * The resource each service's routes are, by module name, where it is not the platform API's
     * ({@link #resource()}): a token for one resource is refused by the routes of another.
     */
    Map<String, String> routeResources();

    /** The secret of the gateway's confidential client at auth-service (introspection). */
    Optional<String> clientSecret();

    /**
     * How long an introspection answer is reused while the revocation feed is up (each answer lives
     * between half of it and all of it, and at most half the platform token's lifetime): the feed
     * makes a revoked token's answer forgotten within a second; without it, a revoked token would
     * work this long.
     */
    @WithDefault("30s")
    Duration tokenCacheTtl();

    /** The revocation feed from auth-service, which makes kept answers forget revoked tokens (RevocationFeed). */
    Feed revocationFeed();

    interface Feed {
        /**
         * How long the feed may stay silent (auth-service sends a heartbeat every second) before it
         * counts as lost: everything kept is forgotten, and it is opened again.
         */
        @WithDefault("3s")
        Duration silence();

        /**
         * How long an introspection answer is reused while the feed is lost (and just after it is
         * back): a revocation is then honoured within this, at the cost of more introspections.
         */
        @WithDefault("1s")
        Duration unprovenReuse();
    }

    /** How many access tokens' answers are kept. */
    @WithDefault("100000")
    int tokenCacheSize();

    /**
     * How long a token that introspection called inactive is refused without asking again: a
     * caller repeating a bad token costs a map read, not an introspection and a database read.
     */
    @WithDefault("10s")
    Duration inactiveTokenCacheTtl();

    /** How often the access token of an open event stream is checked again (StreamWatch). */
    @WithDefault("5s")
    Duration streamTokenRecheck();

    /**
     * The proxies in front of the gateway (the ingress): addresses or CIDR blocks whose
     * {@code X-Forwarded-For} or {@code Forwarded} names the caller (ClientAddresses). None by
     * default: the TCP peer is the caller, and such headers from it change nothing.
     */
    Optional<List<String>> trustedProxies();

    RateLimit rateLimit();

    /** Gateway replicas that share the rate limits when {@link #peers()} is not set (GatewayReplicas). */
    @WithDefault("1")
    int replicas();

    /** The DNS name whose addresses are the gateway replicas (a headless Service), looked up every 10 s. */
    Optional<String> peers();

    /** DPoP proofs' nonces (RFC 9449 §9) and the channel on which gateways ask a nonce's issuer (DpopNonces, DpopPeers). */
    Dpop dpop();

    interface Dpop {
        /**
         * How long a nonce is good from its issue: a proof's first use is remembered by the replica
         * that issued its nonce for this long (plus a few seconds), not the proof's 60 s iat window.
         */
        @WithDefault("60s")
        Duration nonceLifetime();

        /**
         * The port on which the other gateways ask this one about the proofs of its nonces: never
         * routed publicly, only gateways may reach it (NetworkPolicy) and ask (a credential derived
         * from {@link GatewayConfig#clientSecret()}). 0: any free port.
         */
        @WithDefault("8091")
        int peerPort();

        /**
         * The address the other gateways reach this one at, which its nonces name (the pod's IP in
         * the deploy); by default the HTTP host, or this machine's address when that is a wildcard.
         */
        Optional<String> peerHost();

        /** How long a question to another gateway may take before its nonce is refused (the client retries with ours). */
        @WithDefault("2s")
        Duration peerTimeout();
    }

    Cors cors();

    interface RateLimit {
        @WithDefault("true")
        boolean enabled();

        @WithDefault("1h")
        Duration window();

        /** Requests per window for one access token. */
        @WithDefault("5000")
        int authenticated();

        /** Requests per window for one client address without a token. */
        @WithDefault("60")
        int anonymous();

        /**
         * Requests to the token endpoint per window from one client address (each password grant
         * costs an Argon2id hash at directory-service).
         */
        @WithDefault("1200")
        int tokenEndpointPerAddress();

        /** Requests to the token endpoint per window for one client (its HTTP Basic id, or the form's client_id). */
        @WithDefault("100000")
        int tokenEndpointPerClient();

        @WithDefault("200000")
        int maxTrackedCallers();
    }

    interface Cors {
        /** Origins allowed to call the API from a browser; {@code *} for any (bearer tokens, no cookies). */
        @WithDefault("*")
        List<String> allowedOrigins();

        @WithDefault("86400")
        int maxAgeSeconds();
    }

    /** Connections kept per service by each event loop (UpstreamProxies). */
    @WithDefault("64")
    int maxConnectionsPerService();

    /**
     * How long the first read of a service's OpenAPI document may take (ApiReference). A read that
     * fails is tried again, with twice the time each round up to 30 s, and never given up.
     */
    @WithDefault("3s")
    Duration openapiTimeout();
}
