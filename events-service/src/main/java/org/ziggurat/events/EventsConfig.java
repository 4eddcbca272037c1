package org.ziggurat.events;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

@ConfigMapping(prefix = "ziggurat.events")
public interface EventsConfig {

    /** Largest request body of a new event. */
    @WithDefault("1048576")
    int maxBodyBytes();

    @WithDefault("1000")
    int maxCommits();

    /** How deeply a payload may nest objects and arrays. */
    @WithDefault("32")
    int maxPayloadDepth();

    @WithDefault("10000")
    int maxNoteLength();

    /**
     * How many values (objects, arrays and scalars) the payloads of one event may hold together:
     * what bounds the work of its changesets (Changesets).
     */
    @WithDefault("50000")
    int maxPayloadValues();

    /** Changesets of large payloads computed at once, off the event loop; more wait, up to 4 times as many, then 503. */
    @WithDefault("2")
    int changesetThreads();

    /**
     * The person ids of the platform's operators (as auth-service's {@code ziggurat.auth.operators}):
     * with the admin scope they read the audit stream and manage its webhooks.
     */
    java.util.Optional<java.util.Set<Long>> operators();

    /** How often an open stream checks for events even without a notification (and keeps the connection alive). */
    @WithDefault("15s")
    Duration streamHeartbeat();

    /**
     * How often an open stream checks again that its caller may still read the namespace (a
     * membership removed, an organization made private or deleted); when not, the stream ends
     * with a last event saying why.
     */
    @WithDefault("30s")
    Duration streamRightsRecheck();
}
