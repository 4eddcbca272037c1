package org.ziggurat.directory;

import jakarta.inject.Singleton;
import org.ziggurat.platform.readiness.SettingsCheck;
import org.ziggurat.platform.readiness.UnsafeSettings;

/**
 * What directory-service refuses to run in production with: password hashing below OWASP's
 * minimum for Argon2id (19 MiB of memory, two iterations, one lane), which would make stolen
 * hashes cheap to guess; no factor key, or one published with the code (32 bytes, base64: 44
 * characters); an account's slow-down longer than half of what its callers wait for an answer,
 * which would turn the checks of an account under attack into timeouts, its owner's too.
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
        check(config.accountSlowdown(), config.callersTimeout(), settings);
        settings.secret("ziggurat.directory.factor-key", config.factorKey(), 44,
                UnsafeSettings.publishedValues("ziggurat.directory.factor-key"));
    }

    static void check(DirectoryConfig.Slowdown slowdown, java.time.Duration callersTimeout, UnsafeSettings settings) {
        if (slowdown.longest().multipliedBy(2).compareTo(callersTimeout) > 0) {
            settings.add("ziggurat.directory.account-slowdown.longest (" + slowdown.longest().toMillis() + " ms) is more than half "
                    + "of ziggurat.directory.callers-timeout (" + callersTimeout.toMillis() + " ms, the directory client's "
                    + "read timeout): the checks of an account under attack would time out, its owner's too");
        }
    }

    static void check(DirectoryConfig.Argon2 argon2, UnsafeSettings settings) {
        if (argon2.memoryKib() < MIN_MEMORY_KIB || argon2.iterations() < MIN_ITERATIONS || argon2.parallelism() < 1) {
            settings.add("ziggurat.directory.argon2 (memory " + argon2.memoryKib() + " KiB, " + argon2.iterations()
                    + " iterations, " + argon2.parallelism() + " lanes) is below OWASP's minimum for Argon2id: "
                    + MIN_MEMORY_KIB + " KiB, " + MIN_ITERATIONS + " iterations, 1 lane");
        }
    }
}
