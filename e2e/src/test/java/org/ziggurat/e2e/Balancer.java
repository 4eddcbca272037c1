package org.ziggurat.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * HAProxy as the balancers of the e2e stack, round robin as a Kubernetes Service and Ingress
 * spread requests: one public front for the gateways, and one front per service for its
 * instances (what the gateways and the services call). An instance is taken out after two failed
 * readiness checks (every 500 ms) and a request that could not connect goes to another; with no
 * instance left, the answer is a 503 problem, as the gateway gives for a service that is away.
 * Debian's package is used; {@code ZIGGURAT_HAPROXY} names another binary.
 */
final class Balancer {

    /** One balanced front: its port, and the instances behind it (port, and the port of its readiness check). */
    record Front(String name, int port, List<int[]> instances) {
    }

    private final Process process;

    private Balancer(Process process) {
        this.process = process;
    }

    static Balancer start(Path log, List<Front> fronts) throws Exception {
        String binary = binary();
        Path work = Files.createTempDirectory("ziggurat-haproxy");
        work.toFile().deleteOnExit();
        List<String> cfg = new ArrayList<>(List.of(
                "global",
                "  maxconn 8192",
                "defaults",
                "  mode http",
                "  option redispatch",
                "  retries 3",
                "  timeout connect 2s",
                "  timeout client 5m",
                "  timeout server 5m",
                // Longer than every client keeps an idle connection (the gateway's upstream-keep-alive and
                // the directory client 30 s, quarkus-oidc's introspection client 60 s), as deploy/README.md
                // asks of a balancer: at 10 s, its close crossed a gateway's POST on the same connection.
                "  timeout http-keep-alive 75s",
                "  http-error status 503 content-type application/problem+json string "
                        + "'{\"type\":\"about:blank\",\"title\":\"Service Unavailable\",\"status\":503,"
                        + "\"detail\":\"No instance of this service is ready.\"}' hdr Retry-After 2"));
        for (Front front : fronts) {
            cfg.add("frontend " + front.name());
            cfg.add("  bind 127.0.0.1:" + front.port());
            cfg.add("  default_backend " + front.name() + "-instances");
            cfg.add("backend " + front.name() + "-instances");
            cfg.add("  balance roundrobin");
            if (front.name().equals("auth-service")) {
                // The revocation feed's events are small writes a second apart: by default HAProxy asks
                // the kernel to hold them for more (MSG_MORE), up to 200 ms each (RevocationFeedTest).
                cfg.add("  option http-no-delay");
            }
            cfg.add("  option httpchk GET /q/health/ready");
            cfg.add("  http-check expect status 200");
            int n = 0;
            for (int[] instance : front.instances()) {
                cfg.add("  server i" + (++n) + " 127.0.0.1:" + instance[0] + " check port " + instance[1]
                        + " inter 500ms fall 2 rise 1");
            }
        }
        Path file = work.resolve("haproxy.cfg");
        Files.writeString(file, String.join("\n", cfg) + "\n");
        Process process = new ProcessBuilder(binary, "-db", "-f", file.toString()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        Balancer balancer = new Balancer(process);
        long deadline = System.currentTimeMillis() + 15_000;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("HAProxy exited (" + process.exitValue() + "):\n" + Files.readString(log));
            }
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", fronts.get(0).port())) {
                return balancer;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        balancer.stop();
        throw new IllegalStateException("HAProxy did not listen within 15 s:\n" + Files.readString(log));
    }

    void stop() {
        process.destroy();
        Stack.awaitExit(process);
    }

    private static String binary() {
        return Stack.osProgram("ZIGGURAT_HAPROXY", List.of("/usr/sbin/haproxy", "/usr/bin/haproxy", "/usr/local/sbin/haproxy"),
                "HAProxy is needed: the e2e suite balances two instances of everything, as production does "
                        + "(apt-get install haproxy; ./ziggurat test installs it)");
    }
}
