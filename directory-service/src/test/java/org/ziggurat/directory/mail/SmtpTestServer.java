package org.ziggurat.directory.mail;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.Map;

/**
 * A real SMTP server for the module's tests (GreenMail, in the test's JVM), on a free port; the
 * service's mailer is pointed at it. A test may stop and start it, to be a mail server that is away.
 */
public class SmtpTestServer implements QuarkusTestResourceLifecycleManager {

    private static volatile GreenMail server;
    private static volatile ServerSetup setup;

    @Override
    public Map<String, String> start() {
        setup = new ServerSetup(freePort(), "127.0.0.1", ServerSetup.PROTOCOL_SMTP);
        startServer();
        return Map.of("quarkus.mailer.mock", "false",
                "quarkus.mailer.host", "127.0.0.1",
                "quarkus.mailer.port", Integer.toString(setup.getPort()),
                "quarkus.mailer.from", "Ziggurat <no-reply@ziggurat.test>");
    }

    @Override
    public void stop() {
        stopServer();
    }

    /** The running server; null while stopped. */
    public static GreenMail server() {
        return server;
    }

    public static synchronized void stopServer() {
        if (server != null) {
            server.stop();
            server = null;
        }
    }

    /** Starts it again on the same port (its mailboxes start empty). */
    public static synchronized void startServer() {
        if (server == null) {
            GreenMail started = new GreenMail(setup);
            started.start();
            server = started;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
