package org.ziggurat.gateway.pipeline;

import io.quarkus.security.AuthenticationFailedException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;
import org.ziggurat.gateway.GatewayConfig;
import org.ziggurat.gateway.identity.AccessTokens;
import org.ziggurat.gateway.identity.DpopNonces;
import org.ziggurat.gateway.identity.DpopPeers;
import org.ziggurat.gateway.identity.DpopProofs;
import org.ziggurat.gateway.identity.Identities;
import org.ziggurat.gateway.identity.IntrospectionAnswers;
import org.ziggurat.gateway.limits.RateLimits;
import org.ziggurat.gateway.limits.Refusals;
import org.ziggurat.gateway.route.PublicRoutes;
import org.ziggurat.gateway.route.RouteResources;
import org.ziggurat.gateway.route.Upstream;
import org.ziggurat.gateway.route.UpstreamProxies;

/**
 * The pipeline's way for the API: anonymous (limited per address), or as the access token's
 * holder: the token checked ({@link Identities}), its DPoP proof when it is bound to a key, its
 * audience, the rate limit per token, then the service with the platform token in place of the
 * access token.
 */
@Singleton // called on every API request: no client proxy in between
public class ApiForwarding {

    /** The pipeline's log, under the name operators know it by. */
    private static final Logger LOG = Logger.getLogger(GatewayProxy.class);

    private final Identities identities;
    private final RateLimits limits;
    private final Refusals refusals;
    private final UpstreamProxies upstreams;
    private final DpopProofs dpop;
    private final DpopNonces nonces;
    private final DpopPeers peers;
    private final RouteResources resources;

    public ApiForwarding(GatewayConfig config, Identities identities, RateLimits limits, Refusals refusals,
            UpstreamProxies upstreams, DpopProofs dpop, DpopNonces nonces, DpopPeers peers) {
        this.identities = identities;
        this.limits = limits;
        this.refusals = refusals;
        this.upstreams = upstreams;
        this.dpop = dpop;
        this.nonces = nonces;
        this.peers = peers;
        this.resources = new RouteResources(config);
    }

    void forward(RoutingContext ctx, PublicRoutes.Route route, String callerKey, String requestId) {
        HttpServerRequest request = ctx.request();
        AccessTokens.Found token = AccessTokens.find(request.getHeader(HttpHeaders.AUTHORIZATION), request.query());
        if (token.problem() != null) {
            refusals.unauthorized(ctx, "invalid_request", token.problem());
            return;
        }
        String query = AccessTokens.withoutToken(request.query());
        if (token.token() == null) {
            if (!refusals.limited(ctx, limits.enabled() ? limits.takeForAddress(callerKey) : null)) {
                send(ctx, route, query, null, null);
            }
            return;
        }
        Identities.Resolved known = identities.known(token.token());
        if (known != null && known.jkt() == null && !token.dpop()) {
            // The usual case, a bearer token seen before: no wait, so no Uni and no pause.
            forwardAs(ctx, route, query, token.token(), known);
            return;
        }
        request.pause(); // the body waits while the token is checked
        if (known != null) {
            withProof(ctx, route, query, token, known);
            return;
        }
        identities.resolve(token.token(), ctx).subscribe().with(resolved -> {
            if (resolved.jkt() != null || token.dpop()) {
                withProof(ctx, route, query, token, resolved);
            } else if (!forwardAs(ctx, route, query, token.token(), resolved)) {
                request.resume();
            }
        }, failure -> {
            request.resume();
            if (failure instanceof AuthenticationFailedException && !Identities.introspectionUnavailable(failure)) {
                refusals.unauthorized(ctx, "invalid_token", "The access token is invalid, expired or revoked.");
            } else {
                LOG.warnf("token introspection failed [request %s]: %s", requestId, failure.toString());
                refusals.problem(ctx, 503, "Access tokens cannot be checked right now. Try again shortly.");
            }
        });
    }

    /**
     * A call with a token bound to a key, or sent as DPoP (RFC 9449 §7): both, and the call's proof
     * good, made with a nonce a gateway issued (§9) and used for the first time, or a 401 with the
     * DPoP challenge and a nonce. The replica that issued the nonce says whether the proof is new:
     * this one from memory, another when asked ({@link DpopPeers}). The request is paused; it is
     * resumed when refused.
     */
    private void withProof(RoutingContext ctx, PublicRoutes.Route route, String query, AccessTokens.Found token,
            Identities.Resolved resolved) {
        HttpServerRequest request = ctx.request();
        if (resolved.jkt() == null || !token.dpop()) {
            refuseDpop(ctx, "invalid_token", resolved.jkt() == null
                    ? "This access token is not bound to a key: send it as a Bearer token."
                    : "This access token is bound to a key: send it as 'DPoP <token>' with the call's DPoP proof.");
            return;
        }
        if (request.headers().getAll("DPoP").size() > 1) {
            // RFC 9449 §4.3: one DPoP header; a second one is not read past, it is refused.
            refuseDpop(ctx, "invalid_dpop_proof", "The call must carry one DPoP header.");
            return;
        }
        DpopProofs.Checked proof = dpop.check(request.method().name(), request.path(), request.getHeader("DPoP"),
                token.token(), resolved.jkt(), resolved.clientId());
        if (proof.problem() != null) {
            refuseDpop(ctx, "invalid_dpop_proof", proof.problem());
            return;
        }
        DpopNonces.Nonce nonce = nonces.read(proof.nonce());
        if (nonce == null) {
            refuseDpop(ctx, "use_dpop_nonce", proof.nonce() == null ? "The DPoP proof must carry a nonce: use DPoP-Nonce's."
                    : "The DPoP proof's nonce is not one of ours or no longer good: use DPoP-Nonce's.");
            return;
        }
        // The client keeps a nonce that is good for a while yet (§8.2, as an authorization server
        // would), on every answer from here on, a 429 included.
        ctx.response().headers().set("DPoP-Nonce", nonces.current());
        // Admitted (audience, rate limit) before the first use is remembered: a caller past its limit
        // adds nothing to the issuer's replay set, which grows at most as fast as the limits allow.
        if (!admitted(ctx, route, token.token(), resolved)) {
            request.resume();
            return;
        }
        if (nonces.mine(nonce)) {
            firstUse(ctx, route, query, token, resolved, nonces.firstUse(nonce.epoch(), nonce.issuedAt(), resolved.jkt(),
                    proof.jti()));
            return;
        }
        peers.firstUseAt(nonce, resolved.jkt(), proof.jti()).subscribe().with(
                first -> firstUse(ctx, route, query, token, resolved, first), failure -> {
                    LOG.debugf("DPoP nonce of %s not checked there: %s", nonce.issuer(), failure.toString());
                    firstUse(ctx, route, query, token, resolved, null);
                });
    }

    /** The proof's first use (true), a replay (false), or nothing known of it at its nonce's issuer (null). */
    private void firstUse(RoutingContext ctx, PublicRoutes.Route route, String query, AccessTokens.Found token,
            Identities.Resolved resolved, Boolean first) {
        if (first == null) {
            refuseDpop(ctx, "use_dpop_nonce", "The DPoP proof's nonce cannot be checked any more: use DPoP-Nonce's.");
        } else if (!first) {
            refuseDpop(ctx, "invalid_dpop_proof", "The DPoP proof was used already: each call needs a new one.");
        } else {
            send(ctx, route, query, resolved.platformToken(), token.token());
        }
    }

    private void refuseDpop(RoutingContext ctx, String error, String detail) {
        ctx.request().resume();
        refusals.unauthorizedDpop(ctx, error, detail, DpopProofs.ALGORITHM_NAMES, nonces.current());
    }

    /**
     * Forwards the request as the token's holder; false when it was refused instead: the caller's
     * rate limit, or a token whose audience (RFC 8707) is another resource than the route's.
     */
    private boolean forwardAs(RoutingContext ctx, PublicRoutes.Route route, String query, String token,
            Identities.Resolved resolved) {
        if (!admitted(ctx, route, token, resolved)) {
            return false;
        }
        send(ctx, route, query, resolved.platformToken(), token);
        return true;
    }

    /** Whether the token may call the route now (its audience, the caller's rate limit); refused otherwise. */
    private boolean admitted(RoutingContext ctx, PublicRoutes.Route route, String token, Identities.Resolved resolved) {
        if (!IntrospectionAnswers.meantFor(resolved.audience(), resources.of(route.service()), resources.platform())) {
            refusals.unauthorized(ctx, "invalid_token", "The access token is meant for another resource (its audience).");
            return false;
        }
        return !refusals.limited(ctx, limits.enabled() ? limits.takeForToken(token) : null);
    }

    /** On to the service, the caller's Authorization header and access_token parameter left behind. */
    private void send(RoutingContext ctx, PublicRoutes.Route route, String query, String platformToken, String accessToken) {
        upstreams.send(ctx, route.service(), Upstream.of(ctx, route, query, false, platformToken, accessToken, null));
    }
}
