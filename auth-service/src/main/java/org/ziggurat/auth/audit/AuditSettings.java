package org.ziggurat.auth.audit;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Optional;

/** Where the audit stream is (events-service's internal API), and how its outbox is relayed. */
@ConfigMapping(prefix = "ziggurat.auth.audit")
public interface AuditSettings {

    /** events-service's base URL; without it the outbox keeps the events until it is set. */
    Optional<String> eventsUrl();

    /** How often each replica looks for events to relay when no notification woke it. */
    @WithDefault("2s")
    Duration poll();

    @WithDefault("10s")
    Duration timeout();

    @WithDefault("10s")
    Duration firstRetry();

    @WithDefault("1h")
    Duration longestRetry();

    /** Longer than a delivery can take: no other replica takes one under way. */
    @WithDefault("1m")
    Duration lease();
}
