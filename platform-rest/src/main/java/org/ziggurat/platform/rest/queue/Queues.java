package org.ziggurat.platform.rest.queue;

import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.ConfigProvider;
import org.ziggurat.platform.database.DatasourceSettings;
import org.ziggurat.platform.rest.listen.ListenConnection;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * A service's queues: makes their workers, and wakes them. One connection of the service's own
 * LISTENs on every started worker's channel (straight to the server: {@link ListenConnection}); a
 * notification wakes the channel's workers, and so does the connection's coming back (what was
 * notified while it was down is lost). Nothing depends on it: the workers poll besides.
 */
@ApplicationScoped
public class Queues {

    private static final Duration HEARTBEAT = Duration.ofSeconds(30);

    private final Pool pool;
    private final Vertx vertx;
    private final MeterRegistry metrics;
    private final Supplier<Optional<DatasourceSettings>> database;
    private final ListenConnection wakeups;
    private final List<QueueWorker> started = new CopyOnWriteArrayList<>();
    private boolean connecting;

    @Inject
    Queues(Pool pool, Vertx vertx, MeterRegistry metrics) {
        this(pool, vertx, metrics, DatasourceSettings::current, ConfigProvider.getConfig()
                .getOptionalValue("quarkus.application.name", String.class).orElse("ziggurat") + "-queue-listener");
    }

    /** {@code database}: where to LISTEN, asked when the first worker starts. */
    public Queues(Pool pool, Vertx vertx, MeterRegistry metrics, Supplier<Optional<DatasourceSettings>> database,
            String listenerName) {
        this.pool = pool;
        this.vertx = vertx;
        this.metrics = metrics;
        this.database = database;
        this.wakeups = new ListenConnection(vertx, listenerName, HEARTBEAT, new Wakeups());
    }

    /** A worker of the queue in {@code table}, not started yet. */
    public QueueWorker worker(QueueTable table, QueueSettings settings, QueueWorker.Handler handler) {
        return new QueueWorker(vertx, new QueueRepository(pool, table), settings, handler, new QueueMetrics(metrics, table.name()),
                this);
    }

    /** The statements of the queue in {@code table}, for what its user does beside its worker. */
    public QueueRepository repository(QueueTable table) {
        return new QueueRepository(pool, table);
    }

    /** Whether the wake-ups are heard now (tests). */
    public boolean wakeupsHeard() {
        return wakeups.proven();
    }

    synchronized void started(QueueWorker worker) {
        started.add(worker);
        wakeups.listen(worker.queue().table().channel());
        if (!connecting) {
            connecting = true;
            wakeups.start(database.get());
        }
    }

    /** A notification wakes its channel's workers; the connection's coming back wakes them all. */
    private final class Wakeups implements ListenConnection.Listener {

        @Override
        public void heard(String channel, String payload) {
            started.stream().filter(w -> w.queue().table().channel().equals(channel)).forEach(QueueWorker::wake);
        }

        @Override
        public void listening() {
            started.forEach(QueueWorker::wake);
        }

        @Override
        public void lost() {
            // Polling goes on meanwhile.
        }
    }

    @PreDestroy
    public void stop() {
        started.forEach(QueueWorker::stop);
        wakeups.stop();
    }
}
