package org.ziggurat.directory;

import java.time.Duration;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "ziggurat.directory")
public interface DirectoryConfig {

    /** Whether anyone may sign up with POST /people. Closed unless a deployment opens it. */
    @WithDefault("false")
    boolean signupOpen();

    /** Largest avatar upload, in bytes. */
    @WithDefault("1048576")
    int avatarMaxBytes();

    Argon2 argon2();

    /** Failed password checks: after {@code limit} failures within {@code window}, refuse for {@code block}. */
    Throttle accountThrottle();

    Throttle addressThrottle();

    /**
     * Every password check of an account, successful or not: past {@code limit} within
     * {@code window}, refused (429) before any hashing, so that one account cannot queue
     * unlimited Argon2id work (its {@code block} is not used: the window's end lifts it).
     */
    Throttle accountChecks();

    /**
     * Password hashes running or waiting on the hashing pool at most; past it, a fast 503 with
     * Retry-After instead of a queue that outlasts every caller's patience.
     */
    @WithDefault("32")
    int hashingQueue();

    interface Throttle {
        int limit();

        @WithDefault("15m")
        Duration window();

        @WithDefault("15m")
        Duration block();
    }

    interface Argon2 {
        @WithDefault("19456")
        int memoryKib();

        @WithDefault("2")
        int iterations();

        @WithDefault("1")
        int parallelism();
    }
}
