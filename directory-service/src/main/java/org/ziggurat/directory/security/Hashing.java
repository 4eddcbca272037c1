package org.ziggurat.directory.security;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.ziggurat.platform.problem.ProblemException;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.WorkerExecutor;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.ziggurat.directory.DirectoryConfig;

/**
 * Password hashing off the event loop, on a small pool of its own: each Argon2id run takes
 * 19 MiB and most of a core, so a burst of sign-ups or logins queues here instead of starving
 * the worker pool or the heap. The result comes back on the request's event-loop context.
 */
@ApplicationScoped
public class Hashing {

    /** About one hash per core at a time; more would only contend. */
    private static final int POOL_SIZE = Math.max(2, Runtime.getRuntime().availableProcessors());

    private final PasswordHasher hasher;
    private final WorkerExecutor executor;
    private final int queue;
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile String decoy;

    @Inject
    public Hashing(DirectoryConfig config, Vertx vertx) {
        this.hasher = new PasswordHasher(config.argon2().memoryKib(), config.argon2().iterations(),
                config.argon2().parallelism());
        this.executor = vertx.createSharedWorkerExecutor("password-hashing", POOL_SIZE);
        this.queue = Math.max(POOL_SIZE, config.hashingQueue());
    }

    public Uni<String> hash(String password) {
        return bounded(() -> hasher.hash(password));
    }

    /**
     * At most {@code hashing-queue} hashes running or waiting: past it, a 503 with Retry-After at
     * once (nothing hashed), rather than a queue that makes everyone's sign-in time out. A place is
     * taken when the hash is asked for (subscribed) and given back when the hash has run, not when
     * its caller goes away: the pool runs a hash handed to it all the same, so a place given back
     * on a cancellation (a closed connection) let requests sent and closed at once queue hashes
     * without bound. Given back also when the pool never takes the hash (it failed to).
     */
    private <T> Uni<T> bounded(Supplier<T> work) {
        return Uni.createFrom().deferred(() -> {
            if (inFlight.incrementAndGet() > queue) {
                inFlight.decrementAndGet();
                return Uni.createFrom().failure(ProblemException.busy(
                        "Too many passwords are being checked right now. Try again shortly."));
            }
            AtomicBoolean held = new AtomicBoolean(true);
            Runnable giveBack = () -> {
                if (held.compareAndSet(true, false)) {
                    inFlight.decrementAndGet();
                }
            };
            return executor.executeBlocking(Uni.createFrom().item(() -> {
                try {
                    return work.get();
                } finally {
                    giveBack.run();
                }
            }), false).onFailure().invoke(giveBack);
        });
    }

    /**
     * Checks a password against a stored hash, or against a decoy when there is none, so that the
     * answer takes the same time whether or not the account exists.
     */
    public Uni<Boolean> verify(String password, String storedHashOrNull) {
        return bounded(() -> {
            if (storedHashOrNull == null) {
                hasher.verify(password, decoy());
                return false;
            }
            return hasher.verify(password, storedHashOrNull);
        });
    }

    private String decoy() {
        String d = decoy;
        if (d == null) {
            d = hasher.decoy();
            decoy = d;
        }
        return d;
    }

    @PreDestroy
    void close() {
        executor.closeAndAwait();
    }
}
