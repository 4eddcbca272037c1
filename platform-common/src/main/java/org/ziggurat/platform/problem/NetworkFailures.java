package org.ziggurat.platform.problem;

import com.fasterxml.jackson.core.JacksonException;
import io.netty.channel.ConnectTimeoutException;

import java.io.IOException;

/**
 * A refused, reset or broken connection (java.net.ConnectException and SocketException are
 * IOExceptions, and so are Netty's native socket errors): how a client of another service tells
 * an unreachable service from an answer it could not use (an unreadable body is Jackson's, and
 * stays an error of its own).
 */
public final class NetworkFailures {

    private NetworkFailures() {
    }

    public static boolean is(Throwable t) {
        return t instanceof IOException && !(t instanceof JacksonException) || t instanceof ConnectTimeoutException;
    }
}
