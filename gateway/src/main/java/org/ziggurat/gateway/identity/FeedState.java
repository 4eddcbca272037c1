package org.ziggurat.gateway.identity;

import org.ziggurat.gateway.GatewayConfig;

import jakarta.inject.Singleton;

import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * What the revocation feed ({@link RevocationFeed}) says about how long a kept introspection answer
 * may be reused. An answer may be reused for the whole {@code token-cache-ttl} only when every
 * revocation after its introspection will be heard: the feed is up (open, and heard from within
 * {@code revocation-feed.silence}) and nothing about the token, nor "forget everything", was heard
 * shortly before its introspection began.
 *
 * <p>That last part covers the auth-service replicas: each hears a notification on its own, so the
 * one answering an introspection just after the gateway heard a revocation through another may
 * not have heard it yet, and answer from its memory that the token is active. An auth replica
 * that has not proved its own LISTEN connection within three seconds stops answering from memory,
 * so an answer is trusted only if its introspection began {@link #SETTLE_NANOS} after the change.
 * An answer about a token changed within that time is not kept at all; one given within it of
 * "forget everything" (the feed back, or a change too large to list) only briefly.
 */
@Singleton
public class FeedState {

    /** How long after a change an auth replica may still answer as before it (its LISTEN's limit, and margin). */
    static final long SETTLE_NANOS = TimeUnit.SECONDS.toNanos(5);

    /** How long a kept answer may be reused, from what the feed said. */
    enum Reuse {
        /** Up to {@code token-cache-ttl}: a revocation will be heard. */
        FULL,
        /** Up to {@code revocation-feed.unproven-reuse}: the feed is down, or everything was forgotten just before. */
        BRIEF,
        /** Not at all: the token itself changed just before. */
        NONE
    }

    private final long silenceNanos;
    private volatile boolean open;
    /** When the feed was last heard from (System.nanoTime). */
    private volatile long heardAt;
    /** When everything kept was last forgotten. */
    private volatile long forgotAllAt = System.nanoTime();
    /** When each token reference was last named by a change; older than {@link #SETTLE_NANOS}, pruned. */
    private final ConcurrentHashMap<String, Long> changedAt = new ConcurrentHashMap<>();

    public FeedState(GatewayConfig config) {
        this.silenceNanos = config.revocationFeed().silence().toNanos();
    }

    /** Whether the feed is open and was heard from within the silence it is allowed. */
    public boolean up() {
        return open && System.nanoTime() - heardAt <= silenceNanos;
    }

    /** How long an answer about the token {@code reference} (null: unknown), introspected from {@code startedAt}, may be reused. */
    Reuse reuse(String reference, long startedAt) {
        long since = startedAt - SETTLE_NANOS;
        if (reference != null) {
            Long changed = changedAt.get(reference);
            if (changed != null && changed - since >= 0) {
                return Reuse.NONE;
            }
        }
        return reference == null || !up() || forgotAllAt - since >= 0 ? Reuse.BRIEF : Reuse.FULL;
    }

    void opened() {
        heardAt = System.nanoTime();
        open = true;
    }

    void heard() {
        heardAt = System.nanoTime();
    }

    void closed() {
        open = false;
    }

    void changed(Collection<String> references) {
        long now = System.nanoTime();
        references.forEach(reference -> changedAt.put(reference, now));
    }

    void forgotAll() {
        forgotAllAt = System.nanoTime();
    }

    /** Drops the changes too old to matter. */
    void prune() {
        long now = System.nanoTime();
        changedAt.values().removeIf(at -> now - at > SETTLE_NANOS);
    }
}
