package org.ziggurat.platform.rest.queue;

import java.time.Duration;
import java.util.Optional;

/**
 * How a queue's worker works it, on each replica.
 *
 * @param poll         how often it looks for due items when nothing woke it (a lost notification waits this long)
 * @param lease        how long a claimed item is its replica's: longer than handling it can take
 * @param batch        the most items one claim takes
 * @param concurrency  the most items handled at once (1: one after another)
 * @param firstRetry   the wait after a first failure, doubled after each further one, with jitter
 * @param longestRetry the longest wait
 * @param keepDone     how long finished items stay before the purge removes them; empty: the worker purges nothing
 */
public record QueueSettings(Duration poll, Duration lease, int batch, int concurrency, Duration firstRetry,
        Duration longestRetry, Optional<Duration> keepDone) {

    public QueueSettings {
        if (batch < 1 || concurrency < 1) {
            throw new IllegalArgumentException("a worker claims and handles at least one item at a time");
        }
    }
}
