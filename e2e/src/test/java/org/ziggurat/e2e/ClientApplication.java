package org.ziggurat.e2e;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A small local server that plays an OAuth client application for the browser tests: it receives
 * the redirect back at {@code /callback} (each one kept in {@link #callbacks()}) and may serve
 * other pages (a forged one from another origin).
 */
record ClientApplication(HttpServer server, String base, BlockingQueue<URI> callbacks) {

    static ClientApplication start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        BlockingQueue<URI> callbacks = new LinkedBlockingQueue<>();
        server.createContext("/callback", exchange -> {
            callbacks.add(URI.create(base + exchange.getRequestURI()));
            byte[] body = "<html><body><p id=\"done\">Back at the application.</p></body></html>".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return new ClientApplication(server, base, callbacks);
    }

    String callback() {
        return base + "/callback";
    }

    void stop() {
        server.stop(0);
    }
}
