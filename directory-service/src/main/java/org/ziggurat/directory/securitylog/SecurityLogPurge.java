package org.ziggurat.directory.securitylog;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.directory.DirectoryConfig;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * Forgets security log entries older than the retention. Every replica runs it: a delete of what
 * is past the bound is the same whichever replica does it, and batches keep each transaction short.
 */
@ApplicationScoped
public class SecurityLogPurge {

    private static final Logger LOG = Logger.getLogger(SecurityLogPurge.class);
    private final SecurityLogRepository repository;
    private final DirectoryConfig config;

    SecurityLogPurge(SecurityLogRepository repository, DirectoryConfig config) {
        this.repository = repository;
        this.config = config;
    }

    @Scheduled(every = "1h", delayed = "2m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduled() {
        return purge().invoke(count -> {
            if (count > 0) {
                LOG.infof("security log: %d entries past the retention of %s forgotten", count, config.securityLogRetention());
            }
        }).replaceWithVoid();
    }

    /** Deletes every entry older than the retention; how many. */
    public Uni<Long> purge() {
        return repository.purge(OffsetDateTime.now(ZoneOffset.UTC).minus(config.securityLogRetention()));
    }
}
