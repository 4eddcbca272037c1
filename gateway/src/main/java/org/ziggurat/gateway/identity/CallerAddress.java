package org.ziggurat.gateway.identity;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;

/** The caller's address of a request under way, as {@link ClientAddresses} decided it when the request came in. */
public final class CallerAddress {

    /** Where the routing context carries it from the start of the request. */
    public static final String CONTEXT_KEY = "ziggurat.client-address";

    private CallerAddress() {
    }

    /**
     * The TCP peer's address, from the connection (Quarkus's forwarded-address parsing is off:
     * ClientAddresses decides which forwarded headers to believe).
     */
    public static String peer(HttpServerRequest request) {
        SocketAddress address = request.connection() == null ? null : request.connection().remoteAddress();
        return address == null ? null : address.hostAddress();
    }

    /** The peer, or the address trusted proxies named. */
    public static String of(RoutingContext ctx) {
        String known = ctx.get(CONTEXT_KEY);
        return known != null ? known : peer(ctx.request());
    }
}
