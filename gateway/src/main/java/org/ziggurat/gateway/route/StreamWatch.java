package org.ziggurat.gateway.route;

import org.ziggurat.gateway.GatewayConfig;
import org.ziggurat.gateway.identity.Identities;

import io.quarkus.security.AuthenticationFailedException;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Singleton;

/**
 * An event stream was authorized once, when it opened; it stays open for hours. While it is open
 * its access token is checked again every {@code stream-token-recheck}, as any request's would be
 * (so a revocation is seen within {@code token-cache-ttl}); once the token is no longer active, a
 * last event says why, the answer ends, and the service's stream is cut.
 */
@Singleton
public class StreamWatch {

    /** The last event of a stream whose access token stopped being active. */
    static final String TOKEN_INACTIVE_EVENT = "event: stream_closed\ndata: {\"reason\":\"token_inactive\","
            + "\"detail\":\"The access token expired or was revoked.\"}\n\n";

    private final GatewayConfig config;
    private final Identities identities;

    public StreamWatch(GatewayConfig config, Identities identities) {
        this.config = config;
        this.identities = identities;
    }

    void watch(RoutingContext ctx, String accessToken, EndableStream stream) {
        Vertx loop = ctx.vertx();
        loop.setPeriodic(Math.max(100, config.streamTokenRecheck().toMillis()), timer -> {
            if (ctx.response().ended() || ctx.response().closed()) {
                loop.cancelTimer(timer);
                return;
            }
            identities.resolve(accessToken, ctx).subscribe().with(stillActive -> {
            }, failure -> {
                if (failure instanceof AuthenticationFailedException && !Identities.introspectionUnavailable(failure)) {
                    loop.cancelTimer(timer);
                    stream.finish(Buffer.buffer(TOKEN_INACTIVE_EVENT));
                }
            });
        });
    }
}
