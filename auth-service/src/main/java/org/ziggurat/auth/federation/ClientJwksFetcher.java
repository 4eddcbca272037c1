package org.ziggurat.auth.federation;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.clients.ClientKeySets;
import org.ziggurat.platform.problem.DependencyUnavailable;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A registered client's {@code jwks_uri}, read as every address someone else chose is
 * ({@link ProviderHttp}: https, public addresses unless the operator allowed the network, no
 * redirects, 1 MiB at most) and kept five minutes. Fetched again before that only when an
 * assertion names a key the set lacks, and then at most once every 30 seconds per address (a client
 * sending unknown key ids makes no storm of calls).
 */
@ApplicationScoped
public class ClientJwksFetcher implements ClientKeySets {

    static final Duration KEEP = Duration.ofMinutes(5);
    static final Duration REFRESH_AT_MOST_EVERY = Duration.ofSeconds(30);

    private final ProviderHttp http;
    private final AsyncCache<String, String> sets = Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(KEEP).buildAsync();
    private final Map<String, Instant> refreshed = new ConcurrentHashMap<>();

    ClientJwksFetcher(ProviderHttp http) {
        this.http = http;
    }

    @Override
    public Uni<String> fetch(String jwksUri, boolean fresh) {
        if (fresh) {
            Instant last = refreshed.get(jwksUri);
            Instant now = Instant.now();
            if (last == null || last.plus(REFRESH_AT_MOST_EVERY).isBefore(now)) {
                refreshed.put(jwksUri, now);
                sets.synchronous().invalidate(jwksUri);
            }
            if (refreshed.size() > 10_000) {
                refreshed.clear();
            }
        }
        // A copy of the shared look-up: cancelling one waiter fails no other.
        return Uni.createFrom().completionStage(() -> sets.get(jwksUri, (uri, executor) -> http.send("GET", uri,
                Map.of("Accept", "application/jwk-set+json, application/json"), null).map(reply -> {
                    if (reply.status() != 200) {
                        throw new DependencyUnavailable("the jwks_uri answered " + reply.status(), null);
                    }
                    return reply.body();
                }).subscribeAsCompletionStage()).copy());
    }
}
