package org.ziggurat.gateway.route;

import io.netty.channel.ConnectTimeoutException;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.StreamResetException;
import io.vertx.core.VertxException;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.net.SocketException;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which upstream failures are the upstream's, and so worth a warning, and which are the caller's
 * leaving; which are a connection lost under a request, worth sending a safe request again.
 */
class UpstreamFailuresTest {

    @Test
    void aResetRequestIsTheCallerLeaving() {
        assertTrue(UpstreamFailures.callerLeft(new StreamResetException(0)));
    }

    @Test
    void anUpstreamThatCannotBeReachedOrIsSilentIsNot() {
        assertFalse(UpstreamFailures.callerLeft(new ConnectException("Connection refused")));
        assertFalse(UpstreamFailures.callerLeft(new ConnectTimeoutException("connection timed out")));
        assertFalse(UpstreamFailures.callerLeft(new TimeoutException("idle timeout")));
        assertFalse(UpstreamFailures.callerLeft(new VertxException("Connection was closed", true)));
    }

    @Test
    void aConnectionClosedOrResetUnderARequestIsLost() {
        assertTrue(UpstreamFailures.connectionLost(new HttpClosedException("Connection was closed")));
        assertTrue(UpstreamFailures.connectionLost(new SocketException("Connection reset by peer")));
    }

    @Test
    void aServiceNotListeningOrSilentOrACallerLeavingIsNot() {
        assertFalse(UpstreamFailures.connectionLost(new ConnectException("Connection refused")));
        assertFalse(UpstreamFailures.connectionLost(new ConnectTimeoutException("connection timed out")));
        assertFalse(UpstreamFailures.connectionLost(new TimeoutException("idle timeout")));
        assertFalse(UpstreamFailures.connectionLost(new StreamResetException(0)));
    }
}
