package org.ziggurat.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The e2e-resource-server module's application (quarkus-oidc as a service: a research archive's
 * API), run as its own process against the stack's issuer with the identifier and credential its
 * registration gave it; its log in e2e/target/e2e-logs.
 */
record ResourceServerApp(Process process, String base, Path log) {

    static ResourceServerApp start(String logName, String identifier, String clientId, String clientSecret) throws Exception {
        Path jar = Path.of(System.getProperty("user.dir")).getParent()
                .resolve("e2e-resource-server/target/quarkus-app/quarkus-run.jar");
        assertTrue(Files.exists(jar), "the resource server is not built: " + jar);
        Path log = Path.of(System.getProperty("user.dir"), "target", "e2e-logs", logName + ".log");
        Files.createDirectories(log.getParent());
        int port = Stack.freePort();
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toString()).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("QUARKUS_HTTP_HOST", "127.0.0.1");
        builder.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
        builder.environment().put("ZIGGURAT_ISSUER", Platform.api());
        builder.environment().put("ARCHIVE_RESOURCE", identifier);
        builder.environment().put("ARCHIVE_CLIENT_ID", clientId);
        builder.environment().put("ARCHIVE_CLIENT_SECRET", clientSecret);
        Process process = builder.start();
        String base = "http://127.0.0.1:" + port;
        Stack.awaitReady("The resource server", process, base + "/ready", Duration.ofSeconds(60), () -> Files.readString(log));
        return new ResourceServerApp(process, base, log);
    }

    void stop() throws InterruptedException {
        process.destroy();
        process.waitFor();
    }
}
