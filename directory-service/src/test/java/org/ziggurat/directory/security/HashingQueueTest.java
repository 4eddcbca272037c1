package org.ziggurat.directory.security;

import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.WorkerExecutor;
import jakarta.inject.Inject;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.ziggurat.directory.DirectoryConfig;
import org.ziggurat.platform.problem.ProblemException;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Inject
    Hashing hashing;

    @Inject
    Vertx vertx;

    @Inject
    DirectoryConfig config;

    @Test
    void aHashWhoseCallerWentAwayKeepsItsPlaceUntilItHasRun() throws Exception {
        // The hashing pool's own threads, held here (a shared executor of the same name is the same pool),
        // so that nothing queued runs until the test lets it.
        int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
        int queue = Math.max(threads, config.hashingQueue());
        WorkerExecutor pool = vertx.createSharedWorkerExecutor("password-hashing", threads);
        CountDownLatch holding = new CountDownLatch(threads);
        CountDownLatch release = new CountDownLatch(1);
        try {
            for (int i = 0; i < threads; i++) {
                pool.executeBlocking(Uni.createFrom().item(() -> {
                    holding.countDown();
                    await(release);
                    return true;
                }), false).subscribe().with(done -> { }, failure -> { });
            }
            assertTrue(holding.await(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS), "the pool's threads were not all held");

            // As many hashes as the queue takes, each caller gone at once: the hashes are still queued.
            for (int i = 0; i < queue; i++) {
                hashing.hash("a password sent and left " + i).subscribe().with(hash -> { }, failure -> { }).cancel();
            }
            AtomicReference<Throwable> refused = new AtomicReference<>();
            AtomicReference<String> hashed = new AtomicReference<>();
            hashing.hash("one more").subscribe().with(hashed::set, refused::set);
            // The bound's refusal is immediate (nothing hashed): it is here already, or it was let in.
            assertNotNull(refused.get(), "a hash was queued behind " + queue + " abandoned ones: the queue is not bounded");
            assertEquals(503, ((ProblemException) refused.get()).status());
        } finally {
            release.countDown();
        }
        // Once they have run, their places are free again: nothing leaked.
        Awaitility.await().atMost(WAIT).until(() -> {
            try {
                return hashing.hash("after").await().atMost(WAIT) != null;
            } catch (ProblemException busy) {
                return false;
            }
        });
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
