package org.ziggurat.directory;

import jakarta.inject.Singleton;
import org.ziggurat.platform.readiness.SettingsCheck;
import org.ziggurat.platform.readiness.UnsafeSettings;

/**
 * What directory-service refuses to run in production with: password hashing below OWASP's
 * minimum for Argon2id (19 MiB of memory, two iterations, one lane), which would make stolen
 * hashes cheap to guess; no factor key, or one published with the code (32 bytes, base64: 44
 * characters).
 */
@Singleton
public class DirectorySettingsCheck implements SettingsCheck {

    static final int MIN_MEMORY_KIB = 19 * 1024;
    static final int MIN_ITERATIONS = 2;

    private final DirectoryConfig config;

    DirectorySettingsCheck(DirectoryConfig config) {
        this.config = config;
    }

    @Override
    public void check(UnsafeSettings settings) {
        check(config.argon2(), settings);
        settings.secret("ziggurat.directory.factor-key", config.factorKey(), 44,
                UnsafeSettings.publishedValues("ziggurat.directory.factor-key"));
    }

    static void check(DirectoryConfig.Argon2 argon2, UnsafeSettings settings) {
        if (argon2.memoryKib() < MIN_MEMORY_KIB || argon2.iterations() < MIN_ITERATIONS || argon2.parallelism() < 1) {
            settings.add("ziggurat.directory.argon2 (memory " + argon2.memoryKib() + " KiB, " + argon2.iterations()
                    + " iterations, " + argon2.parallelism() + " lanes) is below OWASP's minimum for Argon2id: "
                    + MIN_MEMORY_KIB + " KiB, " + MIN_ITERATIONS + " iterations, 1 lane");
        }
    }
}
