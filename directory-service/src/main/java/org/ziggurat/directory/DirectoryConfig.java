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

    interface Argon2 {
        @WithDefault("19456")
        int memoryKib();

        @WithDefault("2")
        int iterations();

        @WithDefault("1")
        int parallelism();
    }
}
