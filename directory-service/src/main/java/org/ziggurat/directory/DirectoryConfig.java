package org.ziggurat.directory;

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

    interface Throttle {
        int limit();

        @WithDefault("15m")
        java.time.Duration window();

        @WithDefault("15m")
        java.time.Duration block();
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
