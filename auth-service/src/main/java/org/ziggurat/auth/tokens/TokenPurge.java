package org.ziggurat.auth.tokens;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * Expired tokens, codes, device authorizations and login sessions leave the database, and so do
 * the status list entries of expired tokens. A revoked token's row goes a day after it expired
 * (TokenRepository#purgeExpired), never before, and its entry is kept apart anyway: its bit stays
 * 1 until the token expires whatever becomes of the row.
 */
@ApplicationScoped
public class TokenPurge {

    private static final Logger LOG = Logger.getLogger(TokenPurge.class);

    private final TokenRepository tokens;
    private final DeviceAuthorizationRepository devices;
    private final PushedRequestRepository pushed;
    private final StatusListRepository statusLists;

    TokenPurge(TokenRepository tokens, DeviceAuthorizationRepository devices, PushedRequestRepository pushed,
            StatusListRepository statusLists) {
        this.statusLists = statusLists;
        this.tokens = tokens;
        this.devices = devices;
        this.pushed = pushed;
    }

    @Scheduled(every = "{ziggurat.auth.purge-every:15m}", delayed = "1m",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> purge() {
        return tokens.purgeExpired().chain(count -> devices.purgeExpired().map(more -> count + more))
                .chain(count -> pushed.purgeExpired().map(more -> count + more))
                .chain(count -> statusLists.purgeExpired().map(more -> count + more)).invoke(count -> {
            if (count > 0) {
                LOG.infof("purged %d expired tokens, codes, device authorizations, sessions and status list entries", count);
            }
        }).replaceWithVoid();
    }
}
