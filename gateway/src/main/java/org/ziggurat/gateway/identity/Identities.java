package org.ziggurat.gateway.identity;

import org.ziggurat.gateway.GatewayConfig;

import io.quarkus.security.AuthenticationFailedException;
import io.netty.channel.ConnectTimeoutException;
import io.quarkus.oidc.OIDCException;
import io.quarkus.oidc.common.runtime.OidcEndpointAccessException;
import com.github.benmanes.caffeine.cache.AsyncCache;
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
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.ziggurat.platform.token.PlatformTokenSigner;

import java.net.ConnectException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;

/**
 * From an access token to the platform token the services trust: RFC 7662 introspection at
 * auth-service through quarkus-oidc, then one RSA signature. The answer is kept per access token
 * in one bounded cache, so that a request with a known token costs a map read; the signed
 * platform token outlives it, and serves the answers of later introspections that say the same
 * ({@link SignedPlatformTokens}).
 *
 * <p>quarkus-oidc's own token cache is off (application.properties): with it, every request
 * still went through quarkus-oidc's identity provider and got a new security identity, and its
 * entries of one age all expired at once. Here an entry lives for a random time between half of {@code token-cache-ttl} and all
 * of it (never longer than the access token itself, nor than half the platform token's
 * lifetime), so a revoked token stops working within {@code token-cache-ttl}, and tokens first
 * seen together are checked again spread over time, not all at once.
 */
@Singleton // called on every request: no client proxy in between (GatewayProxy)
public class Identities {

    /**
     * Who the token speaks for; {@code platformToken} is null when no person stands behind it.
     * {@code expiresAtEpochSecond}: when this answer may no longer be used, the access token's
     * expiry or, sooner, its platform token's less a margin (0: neither says). {@code audience}: the
     * resources the token is for (RFC 8707; null: it names none, the platform's API); {@code jkt}: the
     * thumbprint of the key it is bound to (RFC 9449), null for a bearer token.
     */
    public record Resolved(String platformToken, String clientId, long expiresAtEpochSecond, List<String> audience,
            String jkt) {

        public Resolved(String platformToken, String clientId, long expiresAtEpochSecond, List<String> audience) {
            this(platformToken, clientId, expiresAtEpochSecond, audience, null);
        }
    }

    /** Seconds a platform token must have left when a service receives it: clock skew and transit. */
    static final long PLATFORM_TOKEN_MARGIN_SECONDS = 5;

    private final IdentityProviderManager identities;
    private final AsyncCache<String, Resolved> resolved;
    private final SignedPlatformTokens platformTokens;
    /** Tokens introspection called inactive, refused without asking again for a few seconds. */
    private final Cache<String, Boolean> inactive;

    @Inject
    public Identities(GatewayConfig config, PlatformTokenSigner signer, IdentityProviderManager identities) {
        this.identities = identities;
        Duration ttl = config.tokenCacheTtl();
        Duration cap = Duration.ofSeconds(Math.max(1, signer.lifetimeSeconds() / 2));
        // Maintenance on the calling event loop: on the common pool, it woke a thread (a futex
        // call and a context switch) every few hundred requests.
        this.resolved = Caffeine.newBuilder().executor(Runnable::run).maximumSize(config.tokenCacheSize())
                .expireAfter(new SpreadReuse(ttl.compareTo(cap) < 0 ? ttl : cap)).buildAsync();
        this.platformTokens = new SignedPlatformTokens(signer, cap, config.tokenCacheSize());
        this.inactive = Caffeine.newBuilder().executor(Runnable::run).maximumSize(config.tokenCacheSize())
                .expireAfterWrite(config.inactiveTokenCacheTtl()).build();
    }

    /**
     * Each answer is reused for a random time between half of {@code reuse} and all of it, and
     * never past the access token's expiry. With one fixed time, tokens first seen together
     * (after a restart, or a client fleet starting) came due together: as many introspections
     * and RSA signatures as tokens at once, a stall every period that every request behind it
     * waited out. Spread, the same work is a steady trickle.
     */
    static final class SpreadReuse implements Expiry<String, Resolved> {

        private final long reuseNanos;

        SpreadReuse(Duration reuse) {
            this.reuseNanos = reuse.toNanos();
        }

        long nanos() {
            return reuseNanos / 2 + ThreadLocalRandom.current().nextLong(reuseNanos / 2 + 1);
        }

        long nanos(Resolved value) {
            long spread = nanos();
            if (value.expiresAtEpochSecond() <= 0) {
                return spread;
            }
            long left = TimeUnit.MILLISECONDS.toNanos(value.expiresAtEpochSecond() * 1000 - System.currentTimeMillis());
            return Math.max(0, Math.min(spread, left));
        }

        @Override
        public long expireAfterCreate(String key, Resolved value, long currentTime) {
            return nanos(value);
        }

        @Override
        public long expireAfterUpdate(String key, Resolved value, long currentTime, long currentDuration) {
            return nanos(value);
        }

        @Override
        public long expireAfterRead(String key, Resolved value, long currentTime, long currentDuration) {
            return currentDuration;
        }
    }

    /**
     * The answer kept for this token, or null when there is none yet (or its look-up is still
     * under way): a map read, which lets the caller go on without a {@link Uni}. With get() and a
     * loader on every request it was a third more.
     */
    public Resolved known(String accessToken) {
        CompletableFuture<Resolved> known = resolved.getIfPresent(accessToken);
        return known != null && known.isDone() && !known.isCompletedExceptionally() ? known.join() : null;
    }

    /**
     * Fails with an AuthenticationFailedException when the token is not active (such answers are
     * not kept). Concurrent requests with one new token share its one introspection; each goes on
     * on its own Vert.x context.
     */
    public Uni<Resolved> resolve(String accessToken, RoutingContext ctx) {
        Resolved known = known(accessToken);
        if (known != null) {
            return Uni.createFrom().item(known);
        }
        if (inactive.getIfPresent(accessToken) != null) {
            return Uni.createFrom().failure(new AuthenticationFailedException("inactive (known)"));
        }
        CompletableFuture<Resolved> answer = resolved.get(accessToken,
                (token, executor) -> introspect(token, ctx)
                        // Only a token found inactive is remembered; not one that could not be checked.
                        .onFailure(e -> e instanceof AuthenticationFailedException
                                && !introspectionUnavailable(e))
                        .invoke(e -> inactive.put(token, Boolean.TRUE))
                        .subscribeAsCompletionStage());
        // A copy: cancelling one request's wait must not cancel the look-up others share.
        Uni<Resolved> uni = Uni.createFrom().completionStage(answer.copy());
        if (answer.isDone()) {
            return uni;
        }
        Context context = Vertx.currentContext();
        return context == null ? uni : uni.emitOn(command -> context.runOnContext(v -> command.run()));
    }

    private Uni<Resolved> introspect(String accessToken, RoutingContext ctx) {
        return identities.authenticate(HttpSecurityUtils.setRoutingContextAttribute(
                        new TokenAuthenticationRequest(new AccessTokenCredential(accessToken)), ctx))
                .map(this::toPlatform);
    }

    private Resolved toPlatform(SecurityIdentity identity) {
        TokenIntrospection introspection = identity.getAttribute(OidcUtils.INTROSPECTION_ATTRIBUTE);
        if (introspection == null) {
            throw new AuthenticationFailedException("no introspection result");
        }
        if (!IntrospectionAnswers.authorizes(introspection.getString("token_type"))) {
            throw new AuthenticationFailedException("not an access token");
        }
        String clientId = introspection.getClientId();
        Long exp = introspection.contains("exp") ? introspection.getLong("exp") : null;
        long expiresAt = exp == null ? 0 : exp;
        Long person = IntrospectionAnswers.person(introspection.getSubject(), introspection.getUsername());
        List<String> audience = IntrospectionAnswers.audience(introspection);
        String jkt = IntrospectionAnswers.boundKey(introspection);
        if (jkt == null && !"bearer".equalsIgnoreCase(introspection.getString("token_type"))) {
            throw new AuthenticationFailedException("a DPoP token without its key");
        }
        if (person == null) {
            return new Resolved(null, clientId, expiresAt, audience, jkt);
        }
        SignedPlatformTokens.Signed platform = platformTokens.of(person, introspection.getUsername(),
                introspection.getScopes() == null ? List.of() : List.copyOf(introspection.getScopes()), clientId,
                introspection.getString("acr"));
        return new Resolved(platform.token(), clientId, IntrospectionAnswers.usableUntil(expiresAt,
                platform.expiresAtEpochSecond() - PLATFORM_TOKEN_MARGIN_SECONDS), audience, jkt);
    }

    /**
     * The token could not be checked, as opposed to being checked and refused: auth-service
     * answered its introspection endpoint with a 5xx (its database away, say), did not answer, or
     * closed the connection under the request. quarkus-oidc reports all of these as an
     * authentication failure, as it does an inactive or expired token; a client must see 503 and
     * retry, not 401 and throw its token away, and the token must not be remembered as inactive.
     * quarkus-oidc's judgments of a token carry a message and no cause (or, for its age, the age
     * check's own failure); a failure of the call is their cause, whatever it is: a connection
     * closed under the request surfaces from its client as a NullPointerException, cause lost.
     */
    public static boolean introspectionUnavailable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            // OIDCException: the introspection endpoint answered other than 200 (an inactive token is
            // a 200 with active=false, reported as a plain authentication failure).
            if (t instanceof OIDCException
                    || t instanceof OidcEndpointAccessException access && access.getErrorStatus() >= 500
                    || t instanceof ConnectException || t instanceof ConnectTimeoutException
                    || t instanceof TimeoutException) {
                return true;
            }
            if (t instanceof AuthenticationFailedException && t.getCause() != null
                    && !(t.getCause() instanceof AuthenticationFailedException)) {
                return true;
            }
        }
        return false;
    }
}
