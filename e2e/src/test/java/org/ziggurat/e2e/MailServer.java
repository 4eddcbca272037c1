package org.ziggurat.e2e;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.internet.MimeMessage;

import java.util.Arrays;
import java.util.List;

/**
 * The stack's mail server: GreenMail, a real SMTP server, in the tests' JVM on a port of its own;
 * directory-service's replicas send to it. A test may stop it and start it again on the same port
 * (a mail server that was away); what it received before is kept across that.
 */
final class MailServer {

    private final ServerSetup setup;
    private final java.util.List<MimeMessage> before = new java.util.concurrent.CopyOnWriteArrayList<>();
    private GreenMail server;

    private MailServer(int port) {
        this.setup = new ServerSetup(port, "127.0.0.1", ServerSetup.PROTOCOL_SMTP);
    }

    static MailServer start(int port) {
        MailServer mail = new MailServer(port);
        mail.resume();
        return mail;
    }

    int port() {
        return setup.getPort();
    }

    synchronized void pause() {
        if (server != null) {
            before.addAll(Arrays.asList(server.getReceivedMessages()));
            server.stop();
            server = null;
        }
    }

    synchronized void resume() {
        if (server == null) {
            GreenMail started = new GreenMail(setup);
            started.start();
            server = started;
        }
    }

    /** Every mail received so far to {@code address}. */
    synchronized List<MimeMessage> to(String address) {
        List<MimeMessage> all = new java.util.ArrayList<>(before);
        if (server != null) {
            all.addAll(Arrays.asList(server.getReceivedMessages()));
        }
        return all.stream().filter(m -> {
            try {
                return Arrays.stream(m.getAllRecipients()).anyMatch(r -> r.toString().equalsIgnoreCase(address));
            } catch (jakarta.mail.MessagingException e) {
                throw new IllegalStateException(e);
            }
        }).toList();
    }

    synchronized void stop() {
        if (server != null) {
            server.stop();
            server = null;
        }
    }
}
