package org.ziggurat.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The e2e-relying-party module's application (quarkus-oidc: a web app, and a storage system's
 * resource server), run as its own process against the stack's issuer with a client of the
 * platform's; its log in e2e/target/e2e-logs.
 */
record RelyingPartyApp(Process process, String base, Path log) {

    /** On {@code port} (chosen first, since a client's redirect URIs name it: {@link Stack#freePort()}). */
    static RelyingPartyApp start(String logName, int port, String clientId, String clientSecret, Map<String, String> more)
            throws Exception {
        Path jar = Path.of(System.getProperty("user.dir")).getParent()
                .resolve("e2e-relying-party/target/quarkus-app/quarkus-run.jar");
        assertTrue(Files.exists(jar), "the relying party is not built: " + jar);
        Path log = Path.of(System.getProperty("user.dir"), "target", "e2e-logs", logName + ".log");
        Files.createDirectories(log.getParent());
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toString()).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("QUARKUS_HTTP_HOST", "127.0.0.1");
        builder.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
        builder.environment().put("ZIGGURAT_ISSUER", Platform.api());
        builder.environment().put("ZIGGURAT_CLIENT_ID", clientId);
        builder.environment().put("ZIGGURAT_CLIENT_SECRET", clientSecret);
        builder.environment().putAll(more);
        Process process = builder.start();
        String base = "http://127.0.0.1:" + port;
        Stack.awaitReady("The relying party", process, base + "/signed-out", Duration.ofSeconds(60), () -> Files.readString(log));
        return new RelyingPartyApp(process, base, log);
    }

    void stop() throws InterruptedException {
        process.destroy();
        process.waitFor();
    }
}
