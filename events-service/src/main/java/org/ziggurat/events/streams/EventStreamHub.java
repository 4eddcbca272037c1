package org.ziggurat.events.streams;

import org.ziggurat.events.data.EventRepository;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.operators.multi.processors.BroadcastProcessor;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.pubsub.PgSubscriber;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;
import org.ziggurat.platform.database.DatasourceSettings;

import java.util.Optional;

/**
 * Postgres {@code LISTEN} on the data-events channel, on a connection of its own that reconnects
 * by itself. Every replica hears every commit, so a stream served by any replica learns of events
 * written by any other. A notification says which repository has something new; streams then
 * read what they have not sent yet.
 */
@ApplicationScoped
public class EventStreamHub {

    private static final Logger LOG = Logger.getLogger(EventStreamHub.class);

    private final Vertx vertx;

    EventStreamHub(Vertx vertx) {
        this.vertx = vertx;
    }

    private final BroadcastProcessor<String> notifications = BroadcastProcessor.create();
    private PgSubscriber subscriber;

    void start(@Observes StartupEvent event) {
        Optional<DatasourceSettings> database = DatasourceSettings.current();
        if (database.isEmpty()) {
            LOG.warn("no datasource URL: event streams hear only their heartbeat");
            return;
        }
        PgConnectOptions options = PgConnectOptions.fromUri(database.get().listenUrl());
        database.get().username().ifPresent(options::setUser);
        database.get().password().ifPresent(options::setPassword);
        subscriber = PgSubscriber.subscriber(vertx, options).reconnectPolicy(retries -> 1000L);
        subscriber.channel(EventRepository.CHANNEL).handler(notifications::onNext);
        subscriber.closeHandler(v -> LOG.warn("event notification connection closed"));
        subscriber.connect().onFailure(e -> LOG.warnf("cannot LISTEN for data events yet: %s", e.toString()));
    }

    void stop(@Observes ShutdownEvent event) {
        if (subscriber != null) {
            subscriber.close();
        }
    }

    /** "namespace/repository" of every newly written event, as they are committed. */
    public Multi<String> notifications() {
        return notifications;
    }
}
