package org.ziggurat.gateway;

import io.netty.channel.ConnectTimeoutException;
import io.vertx.core.http.StreamResetException;
import io.vertx.core.VertxException;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which upstream failures are the upstream's, and so worth a warning, and which are the caller's leaving. */
class UpstreamFailuresTest {

    @Test
    void aResetRequestIsTheCallerLeaving() {
        assertTrue(UpstreamProxies.callerLeft(new StreamResetException(0)));
    }

    @Test
    void anUpstreamThatCannotBeReachedOrIsSilentIsNot() {
        assertFalse(UpstreamProxies.callerLeft(new ConnectException("Connection refused")));
        assertFalse(UpstreamProxies.callerLeft(new ConnectTimeoutException("connection timed out")));
        assertFalse(UpstreamProxies.callerLeft(new TimeoutException("idle timeout")));
        assertFalse(UpstreamProxies.callerLeft(new VertxException("Connection was closed", true)));
    }
}
