package org.ziggurat.directory.security;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.WorkerExecutor;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The password-hashing pool's threads held by a test (a shared worker executor of the same name is
 * the same pool), so that nothing queued on it runs until {@link #close}: what a test then sees of
 * the queue does not depend on how fast the machine hashes.
 */
public final class HeldHashingPool implements AutoCloseable {

    /** The pool's threads ({@link Hashing}'s: one per core, at least two). */
    public static final int THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());

    private final CountDownLatch release = new CountDownLatch(1);

    private HeldHashingPool() {
    }

    /** Every thread of the pool busy with a task of this test's once this returns. */
    public static HeldHashingPool hold(Vertx vertx) throws InterruptedException {
        HeldHashingPool held = new HeldHashingPool();
        WorkerExecutor pool = vertx.createSharedWorkerExecutor("password-hashing", THREADS);
        CountDownLatch holding = new CountDownLatch(THREADS);
        for (int i = 0; i < THREADS; i++) {
            pool.executeBlocking(Uni.createFrom().item(() -> {
                holding.countDown();
                try {
                    held.release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return true;
            }), false).subscribe().with(done -> { }, failure -> { });
        }
        if (!holding.await(60, TimeUnit.SECONDS)) {
            held.close();
            throw new IllegalStateException("the hashing pool's threads were not all held");
        }
        return held;
    }

    /** As many hashes as the queue takes, queued behind the held threads: the next one asked for is a 503. */
    public void fill(Hashing hashing, org.ziggurat.directory.DirectoryConfig config) {
        int queue = Math.max(THREADS, config.hashingQueue());
        for (int i = 0; i < queue; i++) {
            hashing.hash("filling the queue " + i).subscribe().with(hash -> { }, failure -> { });
        }
    }

    /**
     * Waits until the queue has room again (what a test queued has run), so that the next test's
     * hashes are not refused.
     */
    public static void awaitRoom(Hashing hashing) {
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60)).until(() -> {
            try {
                return hashing.hash("after").await().atMost(java.time.Duration.ofSeconds(60)) != null;
            } catch (org.ziggurat.platform.problem.ProblemException busy) {
                return false;
            }
        });
    }

    @Override
    public void close() {
        release.countDown();
    }
}
