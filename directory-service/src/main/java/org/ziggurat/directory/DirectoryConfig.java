package org.ziggurat.directory;

import java.time.Duration;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

@ConfigMapping(prefix = "ziggurat.directory")
public interface DirectoryConfig {

    /** Whether anyone may sign up with POST /people. Closed unless a deployment opens it. */
    @WithDefault("false")
    boolean signupOpen();

    /** Largest avatar upload, in bytes. */
    @WithDefault("1048576")
    int avatarMaxBytes();

    Argon2 argon2();

    /**
     * The key (32 bytes, base64) that seals people's TOTP keys (AES-256-GCM) and keys the hashes
     * of their recovery codes. A secret of the deployment, like the database password: losing it
     * turns every enrolled factor off in effect (no TOTP code can be checked any more).
     */
    java.util.Optional<String> factorKey();

    /**
     * Failed password checks of one account from one address: after {@code limit} failures within
     * {@code window}, that address is refused for that account for {@code block}. Never the
     * account as a whole: anyone could then lock anyone out (its owner, on another address, still
     * signs in; the account is slowed down instead, {@link #accountSlowdown()}).
     */
    Throttle accountThrottle();

    /** Failed password checks from one address, whatever the account: the address is refused. */
    Throttle addressThrottle();

    /**
     * Every password check of one account from one address, successful or not: past {@code limit}
     * within {@code window}, refused (429) before any hashing, so that one caller cannot queue
     * unlimited Argon2id work for an account (its {@code block} is not used: the window's end lifts it).
     */
    Throttle accountChecks();

    /**
     * Failures of one account from every address together slow its checks down, progressively:
     * the checks from an address that has failed for that account itself within the window (an
     * address without such failures, or whose last check of it succeeded, is never slowed by the
     * others' failures).
     */
    Slowdown accountSlowdown();

    interface Slowdown {
        /** Failures within the account throttle's window before its checks wait at all. */
        @WithDefault("5")
        int after();

        /** The first wait; each further failure doubles it. */
        @WithDefault("250ms")
        Duration first();

        /**
         * The longest wait. Never more than half of {@link #callersTimeout()} (a longer one is cut
         * to that, and refused at a production start): a wait the caller does not sit out would
         * turn every check of the account into a 503, its owner's too.
         */
        @WithDefault("1s")
        Duration longest();
    }

    /**
     * How long the services that ask for password and code checks wait for the answer: the
     * directory client's {@code quarkus.rest-client.directory.read-timeout} (directory-client's
     * {@code microprofile-config.properties}). The account's slow-down stays within half of it.
     */
    @WithDefault("5s")
    Duration callersTimeout();

    /**
     * Wrong second-factor codes of one account from every address together (the password passed
     * already): past {@code limit} within {@code window}, its codes are refused for {@code block}
     * whoever sends them. The per-account-and-address and per-address limits are the passwords'.
     */
    Throttle secondFactorThrottle();

    /**
     * Mails that carry a link to an address (a new sign-in address's, a verification link asked
     * again): at most {@code perPerson} for one person and {@code perAddress} to one address within
     * the window, then 429 with Retry-After. Notices of a sign-up with an address that has an
     * account go to it at most {@code perAddress} times a window too, silently.
     */
    AddressMails addressMails();

    interface AddressMails {
        @WithDefault("5")
        int perPerson();

        @WithDefault("5")
        int perAddress();

        @WithDefault("1h")
        Duration window();
    }

    /** How long the account's security log keeps an entry (the account page shows it; the export carries it). */
    @WithName("security-log.retention")
    @WithDefault("90d")
    Duration securityLogRetention();

    /** "Forgot your password?": how many asks one client address, and links one account, get within the window. */
    RecoveryAsks recoveryAsks();

    interface RecoveryAsks {
        @WithDefault("10")
        int perAddress();

        @WithDefault("3")
        int perAccount();

        @WithDefault("30m")
        Duration window();
    }

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
