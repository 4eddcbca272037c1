package org.ziggurat.gateway.identity;

import org.ziggurat.gateway.GatewayConfig;

import io.quarkus.security.AuthenticationFailedException;
import io.netty.channel.ConnectTimeoutException;
import io.quarkus.oidc.OIDCException;
import io.quarkus.oidc.common.runtime.OidcEndpointAccessException;
import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
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
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * From an access token to the platform token the services trust: RFC 7662 introspection at
 * auth-service through quarkus-oidc, then one RSA signature. The answer is kept per access token
 * in one bounded cache, so that a request with a known token costs a map read; the signed
 * platform token outlives it, and serves the answers of later introspections that say the same
 * ({@link SignedPlatformTokens}).
 *
 * <p>quarkus-oidc's own token cache is off (application.properties): with it, every request
 * still went through quarkus-oidc's identity provider and got a new security identity, and its
 * entries of one age all expired at once. Here an entry lives for a random time between half of
 * {@code token-cache-ttl} and all of it (never longer than the access token itself, nor than half
 * the platform token's lifetime), so that tokens first seen together are checked again spread over
 * time, not all at once ({@link SpreadReuse}). A revoked token's answer goes sooner: the revocation
 * feed ({@link RevocationFeed}) names it, by the reference its answer carries, within a second of
 * the revocation; while the feed is lost, answers are reused for {@code unproven-reuse} only
 * ({@link FeedState}).
 */
@Singleton // called on every request: no client proxy in between (GatewayProxy)
public class Identities {

    /**
     * Who the token speaks for; {@code platformToken} is null when no person stands behind it.
     * {@code expiresAtEpochSecond}: when this answer may no longer be used, the access token's
     * expiry or, sooner, its platform token's less a margin (0: neither says). {@code audience}: the
     * resources the token is for (RFC 8707; null: it names none, the platform's API); {@code jkt}: the
     * thumbprint of the key it is bound to (RFC 9449), null for a bearer token;
     * {@code revocationReference}: how the revocation feed names the token (null: the answer did
     * not say); {@code reuse}: how long the answer may be kept ({@link FeedState}).
     */
    public record Resolved(String platformToken, String clientId, long expiresAtEpochSecond, List<String> audience,
            String jkt, String revocationReference, FeedState.Reuse reuse) {

        public Resolved(String platformToken, String clientId, long expiresAtEpochSecond, List<String> audience) {
            this(platformToken, clientId, expiresAtEpochSecond, audience, null, null, FeedState.Reuse.FULL);
        }

        Resolved withReuse(FeedState.Reuse how) {
            return new Resolved(platformToken, clientId, expiresAtEpochSecond, audience, jkt, revocationReference, how);
        }
    }

    /** Seconds a platform token must have left when a service receives it: clock skew and transit. */
    static final long PLATFORM_TOKEN_MARGIN_SECONDS = 5;

    private final IdentityProviderManager identities;
    private final FeedState feed;
    private final AsyncCache<String, Resolved> resolved;
    /** The token of each kept answer by its revocation reference, so that the feed's changes find it. */
    private final Map<String, String> tokensByReference = new ConcurrentHashMap<>();
    /** Told of each token the feed made forgotten (null: all). */
    private final List<Consumer<String>> forgettingListeners = new CopyOnWriteArrayList<>();
    private final SignedPlatformTokens platformTokens;
    /** Tokens introspection called inactive, refused without asking again for a few seconds. */
    private final Cache<String, Boolean> inactive;

    @Inject
    public Identities(GatewayConfig config, PlatformTokenSigner signer, IdentityProviderManager identities, FeedState feed) {
        this.identities = identities;
        this.feed = feed;
        Duration ttl = config.tokenCacheTtl();
        Duration cap = Duration.ofSeconds(Math.max(1, signer.lifetimeSeconds() / 2));
        // Maintenance on the calling event loop: on the common pool, it woke a thread (a futex
        // call and a context switch) every few hundred requests.
        this.resolved = Caffeine.newBuilder().executor(Runnable::run).maximumSize(config.tokenCacheSize())
                .expireAfter(new SpreadReuse(ttl.compareTo(cap) < 0 ? ttl : cap, config.revocationFeed().unprovenReuse()))
                .removalListener((String token, Resolved answer, RemovalCause cause) -> {
                    if (answer != null && answer.revocationReference() != null && cause != RemovalCause.REPLACED) {
                        tokensByReference.remove(answer.revocationReference(), token);
                    }
                })
                .buildAsync();
        this.platformTokens = new SignedPlatformTokens(signer, cap, config.tokenCacheSize());
        this.inactive = Caffeine.newBuilder().executor(Runnable::run).maximumSize(config.tokenCacheSize())
                .expireAfterWrite(config.inactiveTokenCacheTtl()).build();
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

    /** The answer, kept no longer than a change the feed relayed while it was on its way, or just before, allows. */
    private Uni<Resolved> introspect(String accessToken, RoutingContext ctx) {
        long startedAt = System.nanoTime();
        return identities.authenticate(HttpSecurityUtils.setRoutingContextAttribute(
                        new TokenAuthenticationRequest(new AccessTokenCredential(accessToken)), ctx))
                .map(this::toPlatform)
                // Indexed before its reuse is decided: a change heard after that decision finds it.
                .invoke(answer -> {
                    if (answer.revocationReference() != null) {
                        tokensByReference.put(answer.revocationReference(), accessToken);
                    }
                })
                .map(answer -> answer.withReuse(feed.reuse(answer.revocationReference(), startedAt)));
    }

    /** Forgets the kept answers of the tokens the revocation feed named. */
    void forget(Collection<String> references) {
        feed.changed(references);
        for (String reference : references) {
            String token = tokensByReference.remove(reference);
            if (token != null) {
                resolved.synchronous().invalidate(token);
                forgettingListeners.forEach(listener -> listener.accept(token));
            }
        }
    }

    /** Forgets every kept answer: the feed was lost or is back, or a change was too large to list. */
    void forgetAll() {
        feed.forgotAll();
        resolved.synchronous().invalidateAll();
        tokensByReference.clear();
        forgettingListeners.forEach(listener -> listener.accept(null));
    }

    /** {@code listener} is told of each token whose answer the feed made forgotten, null for all (StreamWatch). */
    public void onForgotten(Consumer<String> listener) {
        forgettingListeners.add(listener);
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
        String reference = IntrospectionAnswers.revocationReference(introspection);
        if (person == null) {
            return new Resolved(null, clientId, expiresAt, audience, jkt, reference, FeedState.Reuse.FULL);
        }
        SignedPlatformTokens.Signed platform = platformTokens.of(person, introspection.getUsername(),
                introspection.getScopes() == null ? List.of() : List.copyOf(introspection.getScopes()), clientId,
                introspection.getString("acr"));
        return new Resolved(platform.token(), clientId, IntrospectionAnswers.usableUntil(expiresAt,
                platform.expiresAtEpochSecond() - PLATFORM_TOKEN_MARGIN_SECONDS), audience, jkt, reference, FeedState.Reuse.FULL);
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
