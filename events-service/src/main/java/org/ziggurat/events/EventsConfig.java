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

    /** How often an open stream checks for events even without a notification (and keeps the connection alive). */
    @WithDefault("15s")
    Duration streamHeartbeat();
}
