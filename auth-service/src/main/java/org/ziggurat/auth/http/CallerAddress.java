package org.ziggurat.auth.http;

import io.vertx.core.http.HttpServerRequest;

/**
 * The address of the person or program behind a request, for the directory's sign-in throttle:
 * the first {@code X-Forwarded-For} entry, which the gateway sets (only it reaches this service),
 * else the TCP peer.
 */
public final class CallerAddress {

    private CallerAddress() {
    }

    public static String of(HttpServerRequest request) {
        String forwarded = request.getHeader("X-Forwarded-For");
        if (forwarded != null && !forwarded.isBlank()) {
            return forwarded.split(",")[0].trim();
        }
        return request.remoteAddress() == null ? null : request.remoteAddress().hostAddress();
    }
}
