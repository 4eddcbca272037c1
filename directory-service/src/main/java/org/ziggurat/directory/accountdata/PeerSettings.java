package org.ziggurat.directory.accountdata;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Optional;

/**
 * The services that hold a person's data beside the directory: asked for their part of the
 * person's export, and told of an account's deletion (each at {@code /internal/...}, with this
 * service's platform token). Unset: that part cannot be had (503), and deletions wait for it.
 */
@ConfigMapping(prefix = "ziggurat.directory.peers")
public interface PeerSettings {

    Optional<String> authUrl();

    Optional<String> vocabUrl();

    Optional<String> eventsUrl();

    /** How long one call may take. */
    @WithDefault("20s")
    Duration timeout();

    /** How often each replica looks for erasures and audit events to deliver when no notification woke it. */
    @WithDefault("2s")
    Duration poll();

    /** The first wait after a failed delivery, doubled each time up to the longest, less a random part of up to half. */
    @WithDefault("10s")
    Duration firstRetry();

    @WithDefault("1h")
    Duration longestRetry();

    /** How long a replica holds an erasure it is delivering before another may take it. */
    @WithDefault("2m")
    Duration lease();
}
