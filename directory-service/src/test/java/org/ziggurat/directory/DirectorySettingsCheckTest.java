package org.ziggurat.directory;

import org.junit.jupiter.api.Test;
import org.ziggurat.platform.readiness.UnsafeSettings;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Password hashing below OWASP's minimum, and a slow-down the callers do not wait for, are refused in production, without Quarkus. */
class DirectorySettingsCheckTest {

    record Argon2(int memoryKib, int iterations, int parallelism) implements DirectoryConfig.Argon2 {
    }

    static List<String> problems(Argon2 argon2) {
        UnsafeSettings settings = new UnsafeSettings(false);
        DirectorySettingsCheck.check(argon2, settings);
        return settings.problems();
    }

    @Test
    void theDefaultsAndStrongerPass() {
        assertEquals(List.of(), problems(new Argon2(19456, 2, 1)));
        assertEquals(List.of(), problems(new Argon2(65536, 3, 4)));
    }

    record Slowdown(int after, java.time.Duration first, java.time.Duration longest) implements DirectoryConfig.Slowdown {
    }

    static List<String> problems(java.time.Duration longest, java.time.Duration callersTimeout) {
        UnsafeSettings settings = new UnsafeSettings(false);
        DirectorySettingsCheck.check(new Slowdown(5, java.time.Duration.ofMillis(250), longest), callersTimeout, settings);
        return settings.problems();
    }

    /**
     * The review's finding: a slow-down longer than the callers' patience made every check of an
     * account under attack a 503, its owner's too. At most half of what they wait.
     */
    @Test
    void aSlowdownOfMoreThanHalfTheCallersTimeoutIsRefused() {
        java.time.Duration callers = java.time.Duration.ofSeconds(5);
        assertEquals(List.of(), problems(java.time.Duration.ofSeconds(1), callers));
        assertEquals(List.of(), problems(java.time.Duration.ofMillis(2500), callers));
        assertTrue(problems(java.time.Duration.ofMillis(2501), callers).get(0).contains("account-slowdown.longest"));
        assertEquals(1, problems(java.time.Duration.ofSeconds(10), callers).size());
    }

    /** The callers' timeout this service assumes is the one its client has (directory-client's read timeout). */
    @Test
    void theCallersTimeoutIsTheDirectoryClientsReadTimeout() throws Exception {
        java.util.Properties client = new java.util.Properties();
        try (var in = java.nio.file.Files.newInputStream(java.nio.file.Path.of("..", "directory-client", "src", "main", "resources",
                "META-INF", "microprofile-config.properties"))) {
            client.load(in);
        }
        long readTimeoutMillis = Long.parseLong(client.getProperty("quarkus.rest-client.directory.read-timeout"));
        java.lang.reflect.Method callersTimeout = DirectoryConfig.class.getMethod("callersTimeout");
        String defaultValue = callersTimeout.getAnnotation(io.smallrye.config.WithDefault.class).value();
        assertEquals(readTimeoutMillis, java.time.Duration.ofSeconds(Long.parseLong(defaultValue.replace("s", ""))).toMillis());
        java.lang.reflect.Method longest = DirectoryConfig.Slowdown.class.getMethod("longest");
        java.time.Duration longestDefault = java.time.Duration.ofSeconds(Long.parseLong(
                longest.getAnnotation(io.smallrye.config.WithDefault.class).value().replace("s", "")));
        assertEquals(List.of(), problems(longestDefault, java.time.Duration.ofMillis(readTimeoutMillis)));
    }

    @Test
    void lessMemoryFewerIterationsOrNoLaneIsRefused() {
        assertTrue(problems(new Argon2(19455, 2, 1)).get(0).contains("below OWASP's minimum"));
        assertEquals(1, problems(new Argon2(19456, 1, 1)).size());
        assertEquals(1, problems(new Argon2(19456, 2, 0)).size());
    }
}
