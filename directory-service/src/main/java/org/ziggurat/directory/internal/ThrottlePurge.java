package org.ziggurat.directory.internal;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.directory.DirectoryConfig;

import java.time.OffsetDateTime;

/** Drops throttle rows whose window and block are over, so the table holds only live counts. */
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
        long keepSeconds = Math.max(config.accountThrottle().window().toSeconds(), config.addressThrottle().window().toSeconds());
        return throttle.purge(OffsetDateTime.now().minusSeconds(keepSeconds))
                .invoke(count -> {
                    if (count > 0) {
                        LOG.debugf("purged %d login throttle rows", count);
                    }
                })
                .replaceWithVoid();
    }
}
