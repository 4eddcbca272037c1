package org.ziggurat.e2e;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ziggurat.platform.token.PlatformKeys;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The packaged modules, started as production starts them, refuse unsafe settings: each names
 * every problem in one failed start. No database is needed: the check runs before anything
 * reaches one (its observer comes first), so the modules are pointed at a port where nothing listens.
 */
class UnsafeSettingsTest {

    static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
    static final String REFUSED = "settings are not safe to run with";

    @TempDir
    static Path keys;

    @BeforeAll
    static void keys() throws Exception {
        for (String signer : List.of("auth-service", "directory-service", "vocab-service", "events-service", "gateway")) {
            PlatformKeys.ensureKey(keys, signer);
        }
        PlatformKeys.writeJwks(keys);
    }

    @Test
    void authServiceRefusesAPlainHttpIssuerAndTheKeysOfTheTests() throws Exception {
        Map<String, String> env = service("auth-service");
        env.put("ZIGGURAT_AUTH_ISSUER", "http://api.example.org/api");
        // The test profile's key (auth-service's application.properties), and a key too short.
        env.put("ZIGGURAT_AUTH_TOKEN_HASH_KEY", "dGVzdC1vbmx5LWhtYWMta2V5LW5vdC1mb3ItcHJvZHVjdGlvbi11c2U=");
        env.put("ZIGGURAT_AUTH_TOKEN_ENCRYPTION_KEY", "c2hvcnQ=");
        String log = refused("auth-service", env);
        assertTrue(log.contains("ziggurat.auth.issuer is plain HTTP"), log);
        assertTrue(log.contains("ziggurat.auth.token-hash-key is a value published with the code"), log);
        assertTrue(log.contains("ziggurat.auth.token-encryption-key must be at least 43 characters"), log);
        assertTrue(log.contains("ziggurat.auth.gateway-client.secret is not set"), log);
    }

    @Test
    void directoryServiceRefusesWeakPasswordHashingAndAMissingKeySet() throws Exception {
        Map<String, String> env = service("directory-service");
        env.put("ZIGGURAT_DIRECTORY_ARGON2_MEMORY_KIB", "4096");
        env.put("MP_JWT_VERIFY_PUBLICKEY_LOCATION", "file:" + keys.resolve("missing.json"));
        String log = refused("directory-service", env);
        assertTrue(log.contains("ziggurat.directory.argon2 (memory 4096 KiB"), log);
        assertTrue(log.contains("mp.jwt.verify.publickey.location names no readable file"), log);
        assertTrue(log.contains("ziggurat.directory.factor-key is not set"), log);
    }

    @Test
    void everyServiceNeedsItsSigningKey() throws Exception {
        for (String module : List.of("vocab-service", "events-service")) {
            Map<String, String> env = service(module);
            env.put("ZIGGURAT_PLATFORM_TOKEN_SIGNING_KEY", keys.resolve("nobody.private.pem").toString());
            String log = refused(module, env);
            assertTrue(log.contains("ziggurat.platform-token.signing-key names no readable file"), module + ": " + log);
        }
    }

    @Test
    void theGatewayRefusesAPlainHttpPublicUrlUnlessAllowedForDevelopment() throws Exception {
        Map<String, String> env = gateway();
        env.put("ZIGGURAT_GATEWAY_CLIENT_SECRET", "test-gateway-secret-0123456789abcdef");
        String log = refused("gateway", env);
        assertTrue(log.contains("ziggurat.gateway.public-base-url is plain HTTP"), log);
        assertTrue(log.contains("ziggurat.gateway.client-secret is a value published with the code"), log);

        // The dev overlay's cluster has no TLS and says so: the same URL then starts.
        Map<String, String> allowed = gateway();
        allowed.put("ZIGGURAT_ALLOW_PLAIN_HTTP", "true");
        allowed.put("ZIGGURAT_GATEWAY_CLIENT_SECRET", "a-secret-of-this-stack-only-0123456789");
        int management = freePort();
        allowed.put("QUARKUS_MANAGEMENT_PORT", Integer.toString(management));
        Process gateway = launch("gateway", allowed);
        try {
            Stack.awaitReady("the gateway", gateway, "http://127.0.0.1:" + management + "/q/health/ready",
                    Duration.ofSeconds(60), () -> Files.readString(log("gateway")));
        } finally {
            gateway.destroy();
            gateway.waitFor(20, TimeUnit.SECONDS);
        }
    }

    private Map<String, String> service(String module) throws IOException {
        Map<String, String> env = common(module);
        env.put("QUARKUS_DATASOURCE_REACTIVE_URL", "postgresql://127.0.0.1:" + freePort() + "/nothing");
        env.put("QUARKUS_DATASOURCE_JDBC_URL", "jdbc:postgresql://127.0.0.1:" + freePort() + "/nothing");
        env.put("QUARKUS_FLYWAY_MIGRATE_AT_START", "false");
        return env;
    }

    private Map<String, String> gateway() throws IOException {
        Map<String, String> env = common("gateway");
        env.put("ZIGGURAT_GATEWAY_PUBLIC_BASE_URL", "http://api.example.org/api");
        for (String m : List.of("auth-service", "directory-service", "vocab-service", "events-service")) {
            env.put("ZIGGURAT_GATEWAY_UPSTREAMS_" + m.toUpperCase().replace('-', '_'), "http://127.0.0.1:" + freePort());
        }
        env.put("QUARKUS_MANAGEMENT_PORT", Integer.toString(freePort()));
        // Not the default 8091, which a gateway already running on the machine may hold.
        env.put("ZIGGURAT_GATEWAY_DPOP_PEER_PORT", Integer.toString(freePort()));
        return env;
    }

    private Map<String, String> common(String module) throws IOException {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        env.put("QUARKUS_HTTP_PORT", Integer.toString(freePort()));
        env.put("QUARKUS_LOG_CONSOLE_JSON_ENABLED", "false");
        env.put("MP_JWT_VERIFY_PUBLICKEY_LOCATION", "file:" + keys.resolve(PlatformKeys.JWKS_FILE));
        env.put("ZIGGURAT_PLATFORM_TOKEN_SIGNER", module);
        env.put("ZIGGURAT_PLATFORM_TOKEN_SIGNING_KEY", keys.resolve(module + PlatformKeys.PRIVATE_SUFFIX).toString());
        return env;
    }

    /** Starts the module, which must exit, failed, within a minute; its output. */
    private String refused(String module, Map<String, String> env) throws Exception {
        Process process = launch(module, env);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail(module + " started with unsafe settings:\n" + Files.readString(log(module)));
        }
        String log = Files.readString(log(module));
        String said = module + " exited with " + process.exitValue() + ", its output:\n" + log;
        assertNotEquals(0, process.exitValue(), said);
        assertTrue(log.contains(module + "'s " + REFUSED), said);
        return log;
    }

    private Process launch(String module, Map<String, String> env) throws IOException {
        Path jar = ROOT.resolve(module + "/target/quarkus-app/quarkus-run.jar");
        assertTrue(Files.exists(jar), jar + " is missing: package the modules first");
        // The heap the stack's instances get: with 128 MB, vocab-service sometimes died silently at start.
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-jar", jar.toString())
                .directory(keys.toFile()).redirectErrorStream(true).redirectOutput(log(module).toFile());
        builder.environment().putAll(env);
        return builder.start();
    }

    private static Path log(String module) {
        return keys.resolve(module + ".log");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
