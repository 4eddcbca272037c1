package org.ziggurat.gateway.limits;

import org.ziggurat.gateway.GatewayConfig;

import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.TimeUnit;

/**
 * How many gateway replicas share the rate limits: the ready pods behind
 * {@code ziggurat.gateway.peers} (a headless Service's DNS name, looked up every 10 s), else the
 * fixed {@code ziggurat.gateway.replicas}. Each replica then allows its share of every limit
 * ({@link RateLimits}); when the balancer spreads a caller's requests over the replicas, as
 * ingress-nginx and HAProxy do per request, the caller gets the configured limit in total.
 */
@Singleton
public class GatewayReplicas {

    private static final Logger LOG = Logger.getLogger(GatewayReplicas.class);

    private final GatewayConfig config;
    private final Vertx vertx;

    GatewayReplicas(GatewayConfig config, Vertx vertx) {
        this.config = config;
        this.vertx = vertx;
    }

    private volatile int count = 1;

    void start(@Observes StartupEvent event) {
        count = Math.max(1, config.replicas());
        config.peers().filter(name -> !name.isBlank()).ifPresent(name -> {
            lookUp(name);
            vertx.setPeriodic(TimeUnit.SECONDS.toMillis(10), id -> lookUp(name));
        });
    }

    /** The replicas that share each limit now, at least 1. */
    public int count() {
        return count;
    }

    private void lookUp(String name) {
        vertx.executeBlocking(() -> InetAddress.getAllByName(name).length, false).onComplete(result -> {
            if (result.succeeded() && result.result() > 0) {
                if (result.result() != count) {
                    LOG.infof("rate limits shared by %d gateway replicas (%s)", result.result(), name);
                }
                count = result.result();
            } else {
                // Unknown for now: the last count stands (a DNS hiccup changes nothing).
                Throwable cause = result.cause();
                LOG.debugf("gateway peers %s not resolved: %s", name,
                        cause instanceof UnknownHostException ? "unknown host" : String.valueOf(cause));
            }
        });
    }

    /** A replica's share of a limit: the limit divided among the replicas, never 0. */
    static int share(int limit, int replicas) {
        return Math.max(1, limit / Math.max(1, replicas));
    }
}
