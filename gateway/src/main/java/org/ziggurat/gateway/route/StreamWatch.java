package org.ziggurat.gateway.route;

import org.ziggurat.gateway.GatewayConfig;
import org.ziggurat.gateway.identity.Identities;

import io.quarkus.security.AuthenticationFailedException;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Singleton;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An event stream was authorized once, when it opened; it stays open for hours. While it is open
 * its access token is checked again every {@code stream-token-recheck}, as any request's would be,
 * and at once when the revocation feed makes its kept answer forgotten (so a revocation ends it
 * within a second); once the token is no longer active, a last event says why, the answer ends,
 * and the service's stream is cut.
 */
@Singleton
public class StreamWatch {

    /** The last event of a stream whose access token stopped being active. */
    static final String TOKEN_INACTIVE_EVENT = "event: stream_closed\ndata: {\"reason\":\"token_inactive\","
            + "\"detail\":\"The access token expired or was revoked.\"}\n\n";

    private final GatewayConfig config;
    private final Identities identities;
    /** The checks of the open streams, by access token. */
    private final Map<String, Set<Runnable>> checks = new ConcurrentHashMap<>();

    public StreamWatch(GatewayConfig config, Identities identities) {
        this.config = config;
        this.identities = identities;
        identities.onForgotten(token -> {
            if (token == null) {
                checks.values().forEach(all -> all.forEach(Runnable::run));
            } else {
                checks.getOrDefault(token, Set.of()).forEach(Runnable::run);
            }
        });
    }

    void watch(RoutingContext ctx, String accessToken, EndableStream stream) {
        Vertx loop = ctx.vertx();
        Context context = Vertx.currentContext();
        long[] timer = {-1};
        Runnable[] recheck = new Runnable[1];
        Runnable check = () -> {
            if (ctx.response().ended() || ctx.response().closed()) {
                unwatch(accessToken, recheck[0], loop, timer[0]);
                return;
            }
            identities.resolve(accessToken, ctx).subscribe().with(stillActive -> {
            }, failure -> {
                if (failure instanceof AuthenticationFailedException && !Identities.introspectionUnavailable(failure)) {
                    unwatch(accessToken, recheck[0], loop, timer[0]);
                    stream.finish(Buffer.buffer(TOKEN_INACTIVE_EVENT));
                }
            });
        };
        // Told on the feed's thread: checked on the stream's own event loop.
        recheck[0] = () -> (context != null ? context : loop.getOrCreateContext()).runOnContext(v -> check.run());
        checks.computeIfAbsent(accessToken, t -> ConcurrentHashMap.newKeySet()).add(recheck[0]);
        timer[0] = loop.setPeriodic(Math.max(100, config.streamTokenRecheck().toMillis()), t -> check.run());
    }

    private void unwatch(String accessToken, Runnable recheck, Vertx loop, long timer) {
        loop.cancelTimer(timer);
        checks.computeIfPresent(accessToken, (t, all) -> {
            all.remove(recheck);
            return all.isEmpty() ? null : all;
        });
    }
}
