package org.ziggurat.gateway.route;

import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.StreamResetException;
import io.vertx.core.MultiMap;
import io.vertx.httpproxy.ProxyRequest;

import java.io.IOException;
import java.net.ConnectException;

/**
 * What a failure of an upstream exchange was: the caller leaving, or a connection lost under a
 * request that may be sent again ({@link UpstreamProxies}).
 */
final class UpstreamFailures {

    private UpstreamFailures() {
    }


    /**
     * A request that may be sent again: a safe method (RFC 9110 9.2.1: GET, HEAD, OPTIONS; the
     * idempotent PUT and DELETE change state, and a caller may not expect them twice) and no body,
     * neither the caller's nor one the gateway read itself.
     */
    static boolean replayable(ProxyRequest request, Upstream upstream) {
        HttpMethod method = request.getMethod();
        boolean safe = method == HttpMethod.GET || method == HttpMethod.HEAD || method == HttpMethod.OPTIONS;
        MultiMap headers = request.proxiedRequest().headers();
        String length = headers.get(HttpHeaders.CONTENT_LENGTH);
        boolean bodiless = (length == null || length.equals("0")) && !headers.contains(HttpHeaders.TRANSFER_ENCODING);
        return safe && bodiless && upstream.body() == null;
    }


    /**
     * The connection to the service closed, or was reset, under a request that it had not answered
     * yet. Not a connection refused (no service listens: a second attempt finds the same), not a
     * time-out (the service is slow: a second attempt doubles the wait), not the caller leaving.
     */
    static boolean connectionLost(Throwable failure) {
        return failure instanceof HttpClosedException
                || failure instanceof IOException && !(failure instanceof ConnectException);
    }


    /**
     * The upstream request was reset because the caller closed its connection first (a client
     * timing out, a load generator stopping): nothing is wrong upstream, so no warning. Over
     * HTTP/1.1 only this side resets a request, and it does so when the caller goes away.
     */
    static boolean callerLeft(Throwable failure) {
        return failure instanceof StreamResetException;
    }
}
