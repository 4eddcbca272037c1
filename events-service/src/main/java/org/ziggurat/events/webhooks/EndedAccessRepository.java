package org.ziggurat.events.webhooks;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The ends of people's ways to act told by other services (ended_access, V7), as the webhooks API and
 * the deliveries ask them (WebhookSubscriptionRepository records them, with the stops they make).
 */
@ApplicationScoped
public class EndedAccessRepository {

    private final Pool pool;

    EndedAccessRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * Whether an end of its creator's way to act (ended_access) came after they took the
     * subscription (the row {@code s}) on, or within the grace before (a token from before may have
     * taken it on while the end was being told): then it is stopped, whatever the follow-up of the
     * end saw then. An SQL condition, asked in each delivery's claim; the grace is a setting.
     */
    static String endedSinceTakenOn(String s, java.time.Duration grace) {
        return "EXISTS (SELECT 1 FROM ended_access x WHERE (x.person_id IS NULL OR x.person_id = " + s + ".creator_id) "
                + "AND (x.client_id IS NULL OR x.client_id = " + s + ".creator_client_id) AND " + s + ".creator_since <= "
                + "x.ended_at + make_interval(secs => " + grace.toMillis() / 1000.0 + "))";
    }

    /** Whether an end naming this person and client (their own token: null) was told within the grace. */
    public Uni<Boolean> endedWithin(long person, String clientId, java.time.Duration grace) {
        return pool.preparedQuery("SELECT EXISTS (SELECT 1 FROM ended_access WHERE ended_at > now() - make_interval(secs => $1) "
                        + "AND (person_id IS NULL OR person_id = $2) AND (client_id IS NULL OR client_id = $3)) AS ended")
                .execute(Tuple.of((double) grace.toMillis() / 1000, person, clientId))
                .map(rows -> rows.iterator().next().getBoolean("ended"));
    }
}
