package org.ziggurat.gateway.limits;

import org.ziggurat.gateway.GatewayConfig;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * GitHub-style rate limits: a fixed window per access token, or per client address when
 * anonymous. Counts live in this replica's memory (bounded); each of the N replicas
 * ({@link GatewayReplicas}) allows its share, limit / N, so that a caller whose requests the
 * balancer spreads over the replicas gets the configured limit in total, not N times it. The
 * headers report the configured limit, and what remains of it as this replica sees it.
 */
@Singleton // called on every request: no client proxy in between (GatewayProxy)
public class RateLimits {

    public record Decision(int limit, int remaining, long resetEpochSecond, boolean allowed) {
    }

    private record Window(long resetEpochSecond, AtomicInteger used) {
    }

    private final GatewayConfig.RateLimit config;
    private final Cache<String, Window> windows;
    private final GatewayReplicas replicas;

    @Inject
    public RateLimits(GatewayConfig gateway, GatewayReplicas replicas) {
        this.config = gateway.rateLimit();
        this.replicas = replicas;
        // Maintenance on the calling event loop, as in Identities.
        this.windows = Caffeine.newBuilder().executor(Runnable::run).maximumSize(config.maxTrackedCallers())
                .expireAfterWrite(config.window()).build();
    }

    public boolean enabled() {
        return config.enabled();
    }

    public Decision takeForToken(String token) {
        return take("t:" + token, config.authenticated());
    }

    public Decision takeForAddress(String address) {
        return take("a:" + address, config.anonymous());
    }

    /**
     * A limited OAuth endpoint ({@code path}: the token endpoint, device authorization, pushed
     * requests), per client address: a window of its own, apart from the API's and the others'.
     */
    public Decision takeForOAuthEndpoint(String path, String address) {
        return take("o:" + path + ":" + address, config.tokenEndpointPerAddress());
    }

    /** A limited OAuth endpoint, per client (its id from HTTP Basic, or the form's client_id). */
    public Decision takeForOAuthClient(String path, String clientId) {
        return take("c:" + path + ":" + clientId, config.tokenEndpointPerClient());
    }

    private Decision take(String key, int limit) {
        long now = System.currentTimeMillis() / 1000;
        // A read while the caller's window is open; the atomic replacement only to open a new one.
        Window window = windows.getIfPresent(key);
        if (window == null || window.resetEpochSecond() <= now) {
            window = windows.asMap().compute(key, (k, old) -> old == null || old.resetEpochSecond() <= now
                    ? new Window(now + config.window().toSeconds(), new AtomicInteger()) : old);
        }
        int used = window.used().incrementAndGet();
        int n = replicas.count();
        int share = GatewayReplicas.share(limit, n);
        return new Decision(limit, Math.max(0, (share - used) * n), window.resetEpochSecond(), used <= share);
    }
}
