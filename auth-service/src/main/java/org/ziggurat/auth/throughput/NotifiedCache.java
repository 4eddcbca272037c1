package org.ziggurat.auth.throughput;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import org.jboss.logging.Logger;
import org.ziggurat.platform.database.DatasourceSettings;

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
 * The connection goes straight to the server ({@link DatasourceSettings#listenUrl()}): a pooler
 * in transaction mode does not carry LISTEN.
 */
public final class NotifiedCache<V> {

    private static final Logger LOG = Logger.getLogger(NotifiedCache.class);

    private final Vertx vertx;
    private final String channel;
    private final String applicationName;
    private final Cache<String, V> kept;
    private final long heartbeatMillis;
    private final Predicate<V> stillGood;
    /** Bumped by every forgetting: a read that began before one never keeps what it read. */
    private long generation;
    private volatile boolean listening;
    /** When the LISTEN connection last proved itself alive (System.nanoTime). */
    private volatile long provenAt;
    private DatasourceSettings database;
    private PgConnection connection;
    private long heartbeatTimer = -1;
    private volatile boolean stopped;

    /** {@code size} 0 or less keeps nothing: every read loads. {@code stillGood} is asked on every read. */
    public NotifiedCache(Vertx vertx, String channel, String applicationName, int size, Duration ttl, Duration heartbeat,
            Predicate<V> stillGood) {
        this.vertx = vertx;
        this.channel = channel;
        this.applicationName = applicationName;
        this.kept = size <= 0 ? null : Caffeine.newBuilder().maximumSize(size).expireAfterWrite(ttl).build();
        this.heartbeatMillis = heartbeat.toMillis();
        this.stillGood = stillGood;
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
        // A connection silent for two heartbeats may be dead without having said so.
        return kept != null && listening && System.nanoTime() - provenAt < 2_000_000L * heartbeatMillis + 1_000_000_000L;
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
        database = settings.get();
        connect();
    }

    public void stop() {
        stopped = true;
        lost();
    }

    private synchronized long generation() {
        return generation;
    }

    private synchronized void keep(String key, V value, long before) {
        if (generation == before && usable()) {
            kept.put(key, value);
        }
    }

    private void heard(String payload) {
        if (payload.equals("*")) {
            forgetAll();
            return;
        }
        synchronized (this) {
            generation++;
            for (String key : payload.split(",")) {
                kept.invalidate(key);
            }
        }
    }

    private void connect() {
        if (stopped) {
            return;
        }
        PgConnectOptions options = PgConnectOptions.fromUri(database.listenUrl());
        database.username().ifPresent(options::setUser);
        database.password().ifPresent(options::setPassword);
        options.addProperty("application_name", applicationName);
        PgConnection.connect(vertx, options).compose(conn -> {
            synchronized (this) {
                connection = conn;
            }
            conn.notificationHandler(n -> {
                if (channel.equals(n.getChannel())) {
                    heard(n.getPayload());
                }
            });
            conn.closeHandler(v -> {
                LOG.warnf("the connection listening on %s closed: reads go to the database until it is back", channel);
                lost();
                vertx.setTimer(1000, t -> connect());
            });
            return conn.query("LISTEN " + channel).execute().map(conn);
        }).onSuccess(conn -> {
            synchronized (this) {
                if (connection != conn) {
                    return; // closed between LISTEN and here: its close handler reconnects
                }
                // Whatever changed while nobody listened is unknown: start from nothing.
                generation++;
                kept.invalidateAll();
                provenAt = System.nanoTime();
                listening = true;
                heartbeatTimer = vertx.setPeriodic(heartbeatMillis, t -> heartbeat(conn));
            }
        }).onFailure(e -> {
            LOG.warnf("cannot LISTEN on %s yet (%s): reads go to the database", channel, e.toString());
            lost();
            vertx.setTimer(1000, t -> connect());
        });
    }

    /**
     * A round trip on the LISTEN connection: it carries notifications only while it carries this.
     * One that stays unanswered (a peer gone without a word) is closed, and so reconnected.
     */
    private void heartbeat(PgConnection conn) {
        if (System.nanoTime() - provenAt > 2_000_000L * heartbeatMillis) {
            LOG.warnf("the connection listening on %s stopped answering: reconnecting", channel);
            conn.close();
            return;
        }
        conn.query("SELECT 1").execute().onSuccess(rows -> provenAt = System.nanoTime());
    }

    private void lost() {
        listening = false;
        PgConnection conn;
        synchronized (this) {
            conn = connection;
            connection = null;
            if (heartbeatTimer >= 0) {
                vertx.cancelTimer(heartbeatTimer);
                heartbeatTimer = -1;
            }
        }
        forgetAll();
        if (conn != null) {
            conn.closeHandler(null);
            conn.close();
        }
    }
}
