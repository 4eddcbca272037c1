package org.ziggurat.auth.throughput;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import org.jboss.logging.Logger;
import org.ziggurat.platform.database.DatasourceSettings;
import org.ziggurat.platform.rest.listen.ListenConnection;

import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Rows kept in memory only while their changes are heard: a cache that LISTENs to a PostgreSQL
 * channel on which triggers name, at commit, every key that changes or goes away (keys separated
 * by commas, or {@code *} for all). It knows nothing of what it keeps; its owner says what may be
 * kept and what is still good when read.
 * <ul>
 * <li>a change through this replica is forgotten (by the owner) before it is answered;</li>
 * <li>every replica forgets a key when the notification arrives (milliseconds after commit);</li>
 * <li>a read that began before a forgetting never keeps what it read (the generation);</li>
 * <li>while the LISTEN connection is down, or unproven for longer than two heartbeats, nothing
 * is read from or kept in memory, and everything is forgotten when it is back, since
 * notifications sent meanwhile are lost.</li>
 * </ul>
 * The connection is a {@link ListenConnection}: straight to the server, a pooler in transaction
 * mode does not carry LISTEN.
 */
public final class NotifiedCache<V> {

    private static final Logger LOG = Logger.getLogger(NotifiedCache.class);

    private final String channel;
    private final Cache<String, V> kept;
    private final Predicate<V> stillGood;
    private final ListenConnection connection;
    /** Bumped by every forgetting: a read that began before one never keeps what it read. */
    private long generation;

    /** {@code size} 0 or less keeps nothing: every read loads. {@code stillGood} is asked on every read. */
    public NotifiedCache(Vertx vertx, String channel, String applicationName, int size, Duration ttl, Duration heartbeat,
            Predicate<V> stillGood) {
        this.channel = channel;
        this.kept = size <= 0 ? null : Caffeine.newBuilder().maximumSize(size).expireAfterWrite(ttl).build();
        this.stillGood = stillGood;
        this.connection = new ListenConnection(vertx, applicationName, heartbeat, new Forgetting());
        connection.listen(channel);
    }

    /** The value of a key, from memory when it may; else loaded, and kept when {@code keepable} says so. */
    public Uni<V> get(String key, Supplier<Uni<V>> load, Predicate<V> keepable) {
        if (!usable()) {
            return load.get();
        }
        V value = kept.getIfPresent(key);
        if (value != null) {
            if (stillGood.test(value)) {
                return Uni.createFrom().item(value);
            }
            kept.invalidate(key);
        }
        long before = generation();
        return load.get().invoke(loaded -> {
            if (loaded != null && keepable.test(loaded)) {
                keep(key, loaded, before);
            }
        });
    }

    public void forget(Collection<String> keys) {
        if (kept == null) {
            return;
        }
        synchronized (this) {
            generation++;
            keys.forEach(kept::invalidate);
        }
    }

    /**
     * Forgets the kept values {@code which} picks: a pass over what is kept (milliseconds for a
     * full cache), for a change whose keys are unknown but whose values are recognizable.
     */
    public void forgetIf(Predicate<V> which) {
        if (kept == null) {
            return;
        }
        synchronized (this) {
            generation++;
            kept.asMap().values().removeIf(which);
        }
    }

    public void forgetAll() {
        if (kept == null) {
            return;
        }
        synchronized (this) {
            generation++;
            kept.invalidateAll();
        }
    }

    /** Whether memory is read and written now. */
    public boolean usable() {
        return kept != null && connection.proven();
    }

    public long size() {
        return kept == null ? 0 : kept.estimatedSize();
    }

    /** Starts listening (and so keeping); without a database to listen on, every read loads. */
    public void start(Optional<DatasourceSettings> settings) {
        if (kept == null) {
            return;
        }
        if (settings.isEmpty()) {
            LOG.warnf("no datasource URL to LISTEN on %s: every read goes to the database", channel);
            return;
        }
        connection.start(settings);
    }

    public void stop() {
        connection.stop();
    }

    private synchronized long generation() {
        return generation;
    }

    private synchronized void keep(String key, V value, long before) {
        if (generation == before && usable()) {
            kept.put(key, value);
        }
    }

    /**
     * What the connection tells: a key heard is forgotten; listening (again) and losing the
     * connection forget everything, since what was notified while nobody listened is unknown.
     */
    private final class Forgetting implements ListenConnection.Listener {

        @Override
        public void heard(String heardOn, String payload) {
            if (!channel.equals(heardOn)) {
                return;
            }
            if (payload.equals("*")) {
                forgetAll();
                return;
            }
            forget(java.util.Arrays.asList(payload.split(",")));
        }

        @Override
        public void listening() {
            forgetAll();
        }

        @Override
        public void lost() {
            forgetAll();
        }
    }
}
