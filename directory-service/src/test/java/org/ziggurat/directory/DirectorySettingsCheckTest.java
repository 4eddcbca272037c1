package org.ziggurat.directory;

import org.junit.jupiter.api.Test;
import org.ziggurat.platform.readiness.UnsafeSettings;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Password hashing below OWASP's minimum is refused in production, without Quarkus. */
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

    @Test
    void lessMemoryFewerIterationsOrNoLaneIsRefused() {
        assertTrue(problems(new Argon2(19455, 2, 1)).get(0).contains("below OWASP's minimum"));
        assertEquals(1, problems(new Argon2(19456, 1, 1)).size());
        assertEquals(1, problems(new Argon2(19456, 2, 0)).size());
    }
}
