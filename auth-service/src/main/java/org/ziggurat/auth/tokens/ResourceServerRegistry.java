package org.ziggurat.auth.tokens;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.platform.database.DatasourceSettings;
import org.ziggurat.platform.rest.listen.ListenConnection;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Keeps {@link ResourceServers}' snapshot of the registered resource servers right on every
 * replica. V37's trigger notifies {@code auth_resource_server_changed} at commit of any change, by
 * whatever statement; this replica LISTENs ({@link ListenConnection}: straight to the server) and
 * reads the table again when it hears one, and when it listens (again), since what was notified
 * meanwhile is lost. While it does not listen, it reads the table every
 * {@code ziggurat.auth.resource-server-refresh-every} (5 s). The replica that makes a change reads
 * it before it answers. A read that began before another one finished never replaces what the
 * later one read.
 */
@ApplicationScoped
public class ResourceServerRegistry {

    static final String CHANNEL = "auth_resource_server_changed";
    private static final Logger LOG = Logger.getLogger(ResourceServerRegistry.class);

    private final ResourceServers resources;
    private final ResourceServerRepository repository;
    private final ListenConnection connection;
    /** The reads begun, and the latest begun of those applied: an older read never overwrites a newer one. */
    private long begun;
    private long applied;

    ResourceServerRegistry(AuthConfig config, Vertx vertx, ResourceServers resources, ResourceServerRepository repository) {
        this.resources = resources;
        this.repository = repository;
        this.connection = new ListenConnection(vertx, "auth-service-resource-server-listener", config.liveTokenHeartbeat(),
                new ListenConnection.Listener() {
                    @Override
                    public void heard(String channel, String payload) {
                        if (CHANNEL.equals(channel)) {
                            readInBackground();
                        }
                    }

                    @Override
                    public void listening() {
                        readInBackground();
                    }

                    @Override
                    public void lost() {
                        // The snapshot stays as it is; the periodic read takes over until listening again.
                    }
                });
        connection.listen(CHANNEL);
    }

    /** Reads the registered resource servers again; done when the snapshot holds what was read (or a later read). */
    public Uni<Void> reload() {
        long ticket;
        synchronized (this) {
            ticket = ++begun;
        }
        return repository.all().invoke(rows -> apply(ticket, rows)).replaceWithVoid();
    }

    private synchronized void apply(long ticket, List<ResourceServerRepository.Stored> rows) {
        if (ticket < applied) {
            return;
        }
        applied = ticket;
        List<ResourceServers.Server> servers = new ArrayList<>();
        List<ResourceServers.Credential> credentials = new ArrayList<>();
        for (ResourceServerRepository.Stored row : rows) {
            servers.add(server(row));
            credentials.add(new ResourceServers.Credential(row.clientId(), row.secretHash(), row.identifier()));
        }
        resources.registered(servers, credentials);
    }

    static ResourceServers.Server server(ResourceServerRepository.Stored row) {
        return new ResourceServers.Server(row.identifier(), Set.copyOf(row.scopes()), row.exchangeClientId(),
                row.lifetime() == null ? null : Duration.ofSeconds(row.lifetime()), row.format());
    }

    private void readInBackground() {
        reload().subscribe().with(done -> { }, e -> LOG.warnf("resource servers not read again: %s", e.getMessage()));
    }

    /** Whether changes are heard now: the snapshot is then as good as the table (ResourceServerCredentials). */
    boolean listening() {
        return connection.proven();
    }

    @Scheduled(every = "${ziggurat.auth.resource-server-refresh-every:5s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> readWhileNotListening() {
        if (connection.proven()) {
            return Uni.createFrom().voidItem();
        }
        return reload().onFailure().invoke(e -> LOG.debugf("resource servers not read again: %s", e.getMessage()))
                .onFailure().recoverWithNull();
    }

    void start(@Observes StartupEvent event) {
        try {
            reload().await().atMost(Duration.ofSeconds(30));
        } catch (RuntimeException e) {
            LOG.warnf("resource servers not read at start (read again every few seconds): %s", e.getMessage());
        }
        connection.start(DatasourceSettings.current());
    }

    void stop(@Observes ShutdownEvent event) {
        connection.stop();
    }
}
