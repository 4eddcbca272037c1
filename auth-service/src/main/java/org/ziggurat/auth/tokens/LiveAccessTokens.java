package org.ziggurat.auth.tokens;

import org.ziggurat.auth.oauth.TokenRules;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.platform.database.DatasourceSettings;

import java.time.Instant;
import java.util.Collection;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Live access tokens by lookup hash, kept in memory for introspection, which resource servers
 * call on every request they serve. Without it every introspection was a database read, and
 * PostgreSQL alone could not answer as many as the bar asks (bench/README.md).
 *
 * <p>A revoked token must stop at once, on every replica. So an entry is only kept while this
 * replica LISTENs to {@code auth_access_token_changed}. Triggers on the token table send to it,
 * at commit, every access token that changes or goes away, by whatever statement (migration V4):
 * <ul>
 * <li>a revocation through this replica forgets its tokens before it answers;</li>
 * <li>every replica forgets them when the notification arrives (milliseconds after commit);</li>
 * <li>a read that began before a change never keeps what it read (the generation);</li>
 * <li>while the LISTEN connection is down, or unproven for longer than two heartbeats, nothing
 * is read from or kept in memory, and everything is forgotten when it is back, since
 * notifications sent meanwhile are lost.</li>
 * </ul>
 * Expiry is checked on every read. Revoked, expired and refresh tokens are never kept.
 */
@ApplicationScoped
public class LiveAccessTokens {

    static final String CHANNEL = "auth_access_token_changed";
    private static final Logger LOG = Logger.getLogger(LiveAccessTokens.class);
    private static final HexFormat HEX = HexFormat.of();

    @Inject
    TokenRepository tokens;

    @Inject
    Vertx vertx;

    private final Cache<String, TokenRow> live;
    private final long heartbeatMillis;
    /** Bumped by every forgetting: a read that began before one never keeps what it read. */
    private long generation;
    /** True while notifications are known to arrive. */
    private volatile boolean listening;
    /** When the LISTEN connection last proved itself alive (System.nanoTime). */
    private volatile long provenAt;
    private DatasourceSettings database;
    private PgConnection connection;
    private long heartbeatTimer = -1;
    private volatile boolean stopped;

    @Inject
    public LiveAccessTokens(AuthConfig config) {
        int size = config.liveTokenCacheSize();
        this.live = size <= 0 ? null : Caffeine.newBuilder().maximumSize(size)
                .expireAfterWrite(config.liveTokenCacheTtl()).build();
        this.heartbeatMillis = config.liveTokenHeartbeat().toMillis();
    }

    /** Any token by hash, as {@link TokenRepository#byHash} answers, from memory when it may. */
    public Uni<TokenRow> byHash(byte[] hash) {
        if (!usable()) {
            return tokens.byHash(hash);
        }
        String key = HEX.formatHex(hash);
        TokenRow kept = live.getIfPresent(key);
        if (kept != null) {
            if (kept.isLive(Instant.now())) {
                return Uni.createFrom().item(kept);
            }
            live.invalidate(key);
        }
        long before = generation();
        return tokens.byHash(hash).invoke(row -> {
            if (TokenRules.isBearer(row, Instant.now())) {
                keep(key, row, before);
            }
        });
    }

    /** After a change made through this replica, before it is answered. */
    public void forget(Collection<byte[]> hashes) {
        if (live == null) {
            return;
        }
        synchronized (this) {
            generation++;
            hashes.forEach(h -> live.invalidate(HEX.formatHex(h)));
        }
    }

    /** After a change whose tokens are not known one by one (an application deleted). */
    public void forgetAll() {
        if (live == null) {
            return;
        }
        synchronized (this) {
            generation++;
            live.invalidateAll();
        }
    }

    /** Whether memory is read and written now (tests). */
    boolean listening() {
        return usable();
    }

    /** How many tokens are kept (tests). */
    long size() {
        return live == null ? 0 : live.estimatedSize();
    }

    private boolean usable() {
        // A connection silent for two heartbeats may be dead without having said so.
        return live != null && listening && System.nanoTime() - provenAt < 2_000_000L * heartbeatMillis + 1_000_000_000L;
    }

    private synchronized long generation() {
        return generation;
    }

    private synchronized void keep(String key, TokenRow row, long before) {
        if (generation == before && usable()) {
            live.put(key, row);
        }
    }

    /** A notification: hashes in hex separated by commas, or {@code *} for all (migration V4). */
    private void heard(String payload) {
        if (payload.equals("*")) {
            forgetAll();
            return;
        }
        synchronized (this) {
            generation++;
            for (String hexHash : payload.split(",")) {
                live.invalidate(hexHash);
            }
        }
    }

    void start(@Observes StartupEvent event) {
        if (live == null) {
            return;
        }
        Optional<DatasourceSettings> settings = DatasourceSettings.current();
        if (settings.isEmpty()) {
            LOG.warn("no datasource URL to LISTEN on: introspection reads every token from the database");
            return;
        }
        database = settings.get();
        connect();
    }

    void stop(@Observes ShutdownEvent event) {
        stopped = true;
        lost();
    }

    private void connect() {
        if (stopped) {
            return;
        }
        PgConnectOptions options = PgConnectOptions.fromUri(database.listenUrl());
        database.username().ifPresent(options::setUser);
        database.password().ifPresent(options::setPassword);
        options.addProperty("application_name", "auth-service-token-listener");
        PgConnection.connect(vertx, options).compose(conn -> {
            synchronized (this) {
                connection = conn;
            }
            conn.notificationHandler(n -> {
                if (CHANNEL.equals(n.getChannel())) {
                    heard(n.getPayload());
                }
            });
            conn.closeHandler(v -> {
                LOG.warn("the token notification connection closed: introspection reads the database until it is back");
                lost();
                vertx.setTimer(1000, t -> connect());
            });
            return conn.query("LISTEN " + CHANNEL).execute().map(conn);
        }).onSuccess(conn -> {
            synchronized (this) {
                if (connection != conn) {
                    return; // closed between LISTEN and here: its close handler reconnects
                }
                // Whatever changed while nobody listened is unknown: start from nothing.
                generation++;
                live.invalidateAll();
                provenAt = System.nanoTime();
                listening = true;
                heartbeatTimer = vertx.setPeriodic(heartbeatMillis, t -> heartbeat(conn));
            }
        }).onFailure(e -> {
            LOG.warnf("cannot LISTEN for token changes yet (%s): introspection reads the database", e.toString());
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
            LOG.warn("the token notification connection stopped answering: reconnecting");
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
