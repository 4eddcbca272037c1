package org.ziggurat.auth.tokens;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Status list indices for new JWT access tokens. Each replica takes a block of {@link #BLOCK} from
 * the database sequence and hands it out from memory: a round trip per 1,024 tokens rather than
 * one per token, and no two replicas ever hand out one index. Concurrent requests that find the
 * block used up wait for one new block together rather than each taking one.
 */
@ApplicationScoped
public class StatusIndices {

    /** Indices per block; it divides {@link StatusLists#SIZE}, so a block lies within one list. */
    static final int BLOCK = 1024;

    private final StatusListRepository repository;

    // Guarded by this.
    private long next;
    private long end;
    private Uni<Void> refill;

    StatusIndices(StatusListRepository repository) {
        this.repository = repository;
    }

    /** An index no other token has or will have. */
    public Uni<StatusIndex> next() {
        Uni<Void> wait;
        synchronized (this) {
            if (next < end) {
                return Uni.createFrom().item(StatusIndex.of(next++));
            }
            if (refill == null) {
                refill = repository.nextBlock().onItemOrFailure().invoke((start, failure) -> {
                    synchronized (this) {
                        refill = null;
                        if (start != null) {
                            next = start;
                            end = start + BLOCK;
                        }
                    }
                }).replaceWithVoid().memoize().indefinitely();
            }
            wait = refill;
        }
        // Those who waited go on on their own event loop, not on the one that fetched the block.
        Context caller = Vertx.currentContext();
        Uni<Void> resumed = caller == null ? wait : wait.emitOn(task -> caller.runOnContext(ignored -> task.run()));
        return resumed.chain(this::next);
    }
}
