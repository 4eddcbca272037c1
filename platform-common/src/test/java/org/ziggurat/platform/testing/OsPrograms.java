package org.ziggurat.platform.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Programs of the OS that the tests run beside the services (PgBouncer, HAProxy). */
public final class OsPrograms {

    private OsPrograms() {
    }

    /** The program the environment {@code variable} names, else the first of {@code candidates} that exists. */
    public static String find(String variable, List<String> candidates, String missing) {
        String named = System.getenv(variable);
        if (named != null && !named.isBlank()) {
            return named;
        }
        for (String candidate : candidates) {
            if (Files.isExecutable(Path.of(candidate))) {
                return candidate;
            }
        }
        throw new IllegalStateException(missing + ", or set " + variable);
    }
}
