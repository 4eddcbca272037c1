package org.ziggurat.vocab;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** vocab-service's settings, under {@code ziggurat.vocab}. */
@ConfigMapping(prefix = "ziggurat.vocab")
public interface VocabConfig {

    /**
     * Concept views and pages as rendered, kept per replica under their scheme's revision (a write
     * gives a new one, so nothing kept is ever older than the database). Bounded by bytes; 0 = off.
     */
    @WithDefault("96M")
    MemorySize renderedCacheSize();

    /** A rendered page not read for this long is dropped (pages of earlier revisions are never read again). */
    @WithDefault("30S")
    Duration renderedCacheIdle();

    Imports imports();

    interface Imports {

        /** How often each replica looks for queued import jobs when no notification woke it (a new job wakes it at once). */
        @WithDefault("5s")
        Duration poll();

        /** A running job whose replica has not beaten for this long is taken for gone and claimed again (its lease). */
        @WithDefault("2m")
        Duration staleAfter();
    }
}
