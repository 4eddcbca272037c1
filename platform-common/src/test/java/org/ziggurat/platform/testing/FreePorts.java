package org.ziggurat.platform.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

/** Ports for the processes tests start themselves (PgBouncer, HAProxy, packaged services). */
public final class FreePorts {

    private static final Set<Integer> TAKEN = new HashSet<>();

    private FreePorts() {
    }

    /**
     * A free port below the kernel's ephemeral range (32768 and up on Linux): a port the kernel
     * handed out with ServerSocket(0) is in that range, where any outbound connection (to
     * PostgreSQL, between the services) may take it before the process that was meant to bind it.
     * Never one of a running stack's (8080 to 8084, 8090, 6432, 15432, and their replicas').
     */
    public static synchronized int belowEphemeral() throws IOException {
        Random random = new Random();
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = 20000 + random.nextInt(12000);
            if (TAKEN.contains(port)) {
                continue;
            }
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(false);
                socket.bind(new InetSocketAddress("127.0.0.1", port));
                TAKEN.add(port);
                return port;
            } catch (IOException taken) {
                // in use: try another
            }
        }
        throw new IOException("no free port between 20000 and 32000");
    }
}
