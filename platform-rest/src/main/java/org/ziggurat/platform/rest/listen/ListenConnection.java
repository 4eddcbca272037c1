package org.ziggurat.platform.rest.listen;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import org.jboss.logging.Logger;
import org.ziggurat.platform.database.DatasourceSettings;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;

/**
 * A session of its own that LISTENs to PostgreSQL channels, straight to the server
 * ({@link DatasourceSettings#listenUrl()}): a pooler in transaction mode does not carry LISTEN. It
 * reconnects by itself, and proves itself alive by a round trip every heartbeat; one that stays
 * unanswered (a peer gone without a word) is closed, and so reconnected. Its listener hears what is
 * notified, and when it listens (again) or stops: notifications sent meanwhile are lost.
 */
public final class ListenConnection {

    /** Told on the connection's event loop. */
    public interface Listener {

        void heard(String channel, String payload);

        /** Listening (again): whatever was notified while nobody listened is lost. */
        void listening();

        /** Not listening any more, until {@link #listening()} again. */
        void lost();
    }

    private static final Logger LOG = Logger.getLogger(ListenConnection.class);

    private final Vertx vertx;
    private final String applicationName;
    private final long heartbeatMillis;
    private final Listener listener;
    private final Set<String> channels = new CopyOnWriteArraySet<>();
    private volatile boolean listening;
    /** When the connection last proved itself alive (System.nanoTime). */
    private volatile long provenAt;
    private DatasourceSettings database;
    private PgConnection connection;
    private long heartbeatTimer = -1;
    private volatile boolean stopped;

    public ListenConnection(Vertx vertx, String applicationName, Duration heartbeat, Listener listener) {
        this.vertx = vertx;
        this.applicationName = applicationName;
        this.heartbeatMillis = heartbeat.toMillis();
        this.listener = listener;
    }

    /** Listens on {@code channel} too: now when connected, and after every reconnection. */
    public void listen(String channel) {
        if (!channel.matches("[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException("a channel is a plain lower-case identifier: " + channel);
        }
        if (channels.add(channel)) {
            PgConnection conn;
            synchronized (this) {
                conn = listening ? connection : null;
            }
            if (conn != null) {
                conn.query("LISTEN " + channel).execute()
                        .onFailure(e -> LOG.warnf("cannot LISTEN on %s (%s): reconnecting", channel, e.toString()))
                        .onFailure(e -> conn.close());
            }
        }
    }

    /** Whether it listens now, and proved it within two heartbeats: a silent connection may be dead without having said so. */
    public boolean proven() {
        return listening && System.nanoTime() - provenAt < 2_000_000L * heartbeatMillis + 1_000_000_000L;
    }

    /** Starts listening; without a database to listen on, nothing is heard (and the listener is never told it listens). */
    public void start(Optional<DatasourceSettings> settings) {
        if (settings.isEmpty()) {
            LOG.warnf("no datasource URL to LISTEN on %s: nothing is heard", channels);
            return;
        }
        database = settings.get();
        connect();
    }

    public void stop() {
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
        options.addProperty("application_name", applicationName);
        PgConnection.connect(vertx, options).compose(conn -> {
            synchronized (this) {
                connection = conn;
            }
            // Once stopped, nothing more is heard, though the closing connection may still deliver some.
            conn.notificationHandler(n -> {
                if (!stopped) {
                    listener.heard(n.getChannel(), n.getPayload());
                }
            });
            conn.closeHandler(v -> {
                LOG.warnf("the connection listening on %s closed: reconnecting", channels);
                lost();
                vertx.setTimer(1000, t -> connect());
            });
            return listenAll(conn, List.copyOf(channels)).map(conn);
        }).onSuccess(conn -> {
            synchronized (this) {
                if (connection != conn) {
                    return; // closed between LISTEN and here: its close handler reconnects
                }
                listener.listening();
                provenAt = System.nanoTime();
                listening = true;
                heartbeatTimer = vertx.setPeriodic(heartbeatMillis, t -> heartbeat(conn));
            }
            // Channels added while the first LISTEN was on its way: listen() did not send them.
            listenAll(conn, List.copyOf(channels));
        }).onFailure(e -> {
            LOG.warnf("cannot LISTEN on %s yet (%s)", channels, e.toString());
            lost();
            vertx.setTimer(1000, t -> connect());
        });
    }

    private static Future<?> listenAll(PgConnection conn, List<String> all) {
        return all.isEmpty() ? Future.succeededFuture()
                : conn.query(String.join("; ", all.stream().map(c -> "LISTEN " + c).toList())).execute();
    }

    private void heartbeat(PgConnection conn) {
        if (System.nanoTime() - provenAt > 2_000_000L * heartbeatMillis) {
            LOG.warnf("the connection listening on %s stopped answering: reconnecting", channels);
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
        listener.lost();
        if (conn != null) {
            conn.closeHandler(null);
            conn.close();
        }
    }
}
