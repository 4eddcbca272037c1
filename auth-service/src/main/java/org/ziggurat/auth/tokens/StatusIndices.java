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
 *
 * <p>A block is handed out in a random order, not in issuance order: the lists are public, and
 * neighbouring indices would tell which tokens were issued together (a sign-in's tokens for
 * several resources, whose bits then turn INVALID together at its sign-out), and how many tokens
 * the platform issues (draft-ietf-oauth-status-list's privacy considerations on correlation).
 */
@ApplicationScoped
public class StatusIndices {

    /** Indices per block; it divides {@link StatusLists#SIZE}, so a block lies within one list. */
    static final int BLOCK = 1024;

    private final StatusListRepository repository;

    private final java.security.SecureRandom random = new java.security.SecureRandom();
    // Guarded by this: the block's first index, its offsets in the order handed out, how many are.
    private long start;
    private final int[] order = new int[BLOCK];
    private int handedOut = BLOCK;
    private Uni<Void> refill;

    StatusIndices(StatusListRepository repository) {
        this.repository = repository;
    }

    /** An index no other token has or will have. */
    public Uni<StatusIndex> next() {
        Uni<Void> wait;
        synchronized (this) {
            if (handedOut < BLOCK) {
                return Uni.createFrom().item(StatusIndex.of(start + order[handedOut++]));
            }
            if (refill == null) {
                refill = repository.nextBlock().onItemOrFailure().invoke((first, failure) -> {
                    synchronized (this) {
                        refill = null;
                        if (first != null) {
                            start = first;
                            shuffle();
                            handedOut = 0;
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

    /** The offsets 0 to BLOCK - 1 in a random order (Fisher-Yates). */
    private void shuffle() {
        for (int i = 0; i < BLOCK; i++) {
            order[i] = i;
        }
        for (int i = BLOCK - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int swapped = order[i];
            order[i] = order[j];
            order[j] = swapped;
        }
    }
}
