package org.ziggurat.directory.security;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.core.Vertx;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.ziggurat.directory.DirectoryConfig;
import org.ziggurat.platform.problem.ProblemException;

import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The hashing queue's bound holds for hashes whose caller went away. A closed connection cancels
 * the request's Uni, but a hash handed to the worker pool runs all the same (the pool neither
 * drops nor interrupts it): its place in the queue was given back on that cancellation, so
 * requests sent and closed at once (a sign-up, a reset with any well-formed token) queued Argon2id
 * work past {@code hashing-queue} without bound, and every sign-in waited behind it past its
 * caller's 5 s instead of a fast 503.
 */
@QuarkusTest
class HashingQueueTest {

    @Inject
    Hashing hashing;

    @Inject
    Vertx vertx;

    @Inject
    DirectoryConfig config;

    @Test
    void aHashWhoseCallerWentAwayKeepsItsPlaceUntilItHasRun() throws Exception {
        int queue = Math.max(HeldHashingPool.THREADS, config.hashingQueue());
        try (HeldHashingPool held = HeldHashingPool.hold(vertx)) {
            // As many hashes as the queue takes, each caller gone at once: the hashes are still queued.
            for (int i = 0; i < queue; i++) {
                hashing.hash("a password sent and left " + i).subscribe().with(hash -> { }, failure -> { }).cancel();
            }
            AtomicReference<Throwable> refused = new AtomicReference<>();
            hashing.hash("one more").subscribe().with(hash -> { }, refused::set);
            // The bound's refusal is immediate (nothing hashed): it is here already, or the hash was let in.
            assertNotNull(refused.get(), "a hash was queued behind " + queue + " abandoned ones: the queue is not bounded");
            assertEquals(503, ((ProblemException) refused.get()).status());
        }
        // Once they have run, their places are free again: nothing leaked.
        HeldHashingPool.awaitRoom(hashing);
    }
}
