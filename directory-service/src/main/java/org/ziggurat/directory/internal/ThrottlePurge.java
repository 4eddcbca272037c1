package org.ziggurat.directory.internal;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.directory.DirectoryConfig;

import java.time.OffsetDateTime;

/** Drops throttle rows whose window (the longest counted) and block are over, so the table holds only live counts. */
@ApplicationScoped
public class ThrottlePurge {

    private static final Logger LOG = Logger.getLogger(ThrottlePurge.class);

    private final LoginThrottle throttle;
    private final DirectoryConfig config;

    ThrottlePurge(LoginThrottle throttle, DirectoryConfig config) {
        this.throttle = throttle;
        this.config = config;
    }

    @Scheduled(every = "10m", delayed = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> purge() {
        // Rows live as long as the longest window counted in the table: a count purged early would start again.
        long keepSeconds = java.util.stream.Stream.of(config.accountThrottle().window(), config.addressThrottle().window(),
                        config.accountChecks().window(), config.secondFactorThrottle().window(), config.recoveryAsks().window(),
                        config.addressMails().window())
                .mapToLong(java.time.Duration::toSeconds).max().orElseThrow();
        return throttle.purge(OffsetDateTime.now().minusSeconds(keepSeconds))
                .invoke(count -> {
                    if (count > 0) {
                        LOG.debugf("purged %d login throttle rows", count);
                    }
                })
                .replaceWithVoid();
    }
}
