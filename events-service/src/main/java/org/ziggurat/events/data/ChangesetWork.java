package org.ziggurat.events.data;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.WorkerExecutor;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.ziggurat.events.EventsConfig;
import org.ziggurat.platform.problem.ProblemException;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The changesets of large payloads, computed on a small pool of their own and never on an event
 * loop: a page of events must not wait behind them. The pool runs {@code changeset-threads} at a
 * time and lets four times as many wait; past that the event is refused with 503 and Retry-After
 * (nothing was written) rather than queued without end. The result comes back on the request's
 * own event-loop context, where its transaction goes on.
 */
@ApplicationScoped
public class ChangesetWork {

    private final WorkerExecutor executor;
    private final int capacity;
    private final AtomicInteger inFlight = new AtomicInteger();

    @Inject
    public ChangesetWork(EventsConfig config, Vertx vertx) {
        int threads = Math.max(1, config.changesetThreads());
        this.executor = vertx.createSharedWorkerExecutor("changesets", threads);
        this.capacity = threads * 5;
    }

    public <T> Uni<T> run(Supplier<T> work) {
        if (inFlight.incrementAndGet() > capacity) {
            inFlight.decrementAndGet();
            return Uni.createFrom().failure(ProblemException.busy(
                    "Too many large data events are being written at once. Try again shortly."));
        }
        return executor.executeBlocking(Uni.createFrom().item(work), false)
                .onTermination().invoke(inFlight::decrementAndGet);
    }

    @PreDestroy
    void close() {
        executor.closeAndAwait();
    }
}
