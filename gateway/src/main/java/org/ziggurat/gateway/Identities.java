package org.ziggurat.gateway;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.oidc.TokenIntrospection;
import io.quarkus.oidc.runtime.OidcUtils;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.ziggurat.platform.token.PlatformTokenSigner;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * From an access token to the platform token the services trust: RFC 7662 introspection at
 * auth-service through quarkus-oidc (with its bounded cache, so a revoked token stops working
 * within the cache's lifetime), then one RSA signature per access token, reused while fresh.
 */
@ApplicationScoped
public class Identities {

    /** Who the token speaks for; {@code platformToken} is null when no person stands behind it. */
    public record Resolved(String platformToken, String clientId) {
    }

    @Inject
    IdentityProviderManager identities;

    private final PlatformTokenSigner signer;
    private final Cache<String, String> signed;

    @Inject
    public Identities(GatewayConfig config, PlatformTokenSigner signer) {
        this.signer = signer;
        Duration reuse = config.platformTokenReuse();
        Duration cap = Duration.ofSeconds(Math.max(1, signer.lifetimeSeconds() / 2));
        this.signed = Caffeine.newBuilder().maximumSize(100_000)
                .expireAfter(new SpreadReuse(reuse.compareTo(cap) < 0 ? reuse : cap)).build();
    }

    /**
     * Each signed token is reused for a random time between half of {@code reuse} and all of it.
     * With one fixed time, tokens first seen together (after a restart, or a client fleet
     * starting) came due together: 1,000 RSA signatures at once, 1.2 ms each on the event loop,
     * a stall of over a second every period (seen as p99 93-114 ms in the benchmark's
     * {@code /user}, which rotates 1,000 tokens). Spread, the same signatures are a steady trickle.
     */
    static final class SpreadReuse implements Expiry<String, String> {

        private final long reuseNanos;

        SpreadReuse(Duration reuse) {
            this.reuseNanos = reuse.toNanos();
        }

        long nanos() {
            return reuseNanos / 2 + ThreadLocalRandom.current().nextLong(reuseNanos / 2 + 1);
        }

        @Override
        public long expireAfterCreate(String key, String value, long currentTime) {
            return nanos();
        }

        @Override
        public long expireAfterUpdate(String key, String value, long currentTime, long currentDuration) {
            return nanos();
        }

        @Override
        public long expireAfterRead(String key, String value, long currentTime, long currentDuration) {
            return currentDuration;
        }
    }

    /** Fails with an AuthenticationFailedException when the token is not active. */
    public Uni<Resolved> resolve(String accessToken, RoutingContext ctx) {
        return identities.authenticate(HttpSecurityUtils.setRoutingContextAttribute(
                        new TokenAuthenticationRequest(new AccessTokenCredential(accessToken)), ctx))
                .map(identity -> toPlatform(accessToken, identity));
    }

    private Resolved toPlatform(String accessToken, SecurityIdentity identity) {
        TokenIntrospection introspection = identity.getAttribute(OidcUtils.INTROSPECTION_ATTRIBUTE);
        if (introspection == null) {
            throw new io.quarkus.security.AuthenticationFailedException("no introspection result");
        }
        String subject = introspection.getSubject();
        String clientId = introspection.getClientId();
        if (subject == null || !subject.matches("[1-9][0-9]{0,18}") || introspection.getUsername() == null) {
            // A client acting for itself (client_credentials): no person to speak for.
            return new Resolved(null, clientId);
        }
        String platformToken = signed.get(accessToken, t -> signer.signUser(Long.parseLong(subject),
                introspection.getUsername(), introspection.getScopes() == null ? List.of() : introspection.getScopes(),
                clientId));
        return new Resolved(platformToken, clientId);
    }
}
