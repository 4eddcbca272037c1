package org.ziggurat.gateway.limits;

import io.vertx.core.MultiMap;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Singleton;
import org.ziggurat.gateway.GatewayConfig;
import org.ziggurat.gateway.ProtectedResource;
import org.ziggurat.platform.problem.ProblemRoutes;

import java.time.Instant;

/**
 * The gateway's own refusals, as problems: a spent rate limit (429), a missing or bad access token
 * (401, its challenge naming the API's protected resource metadata).
 */
@Singleton // called on every request: no client proxy in between (GatewayProxy)
public class Refusals {

    private final ProblemRoutes problems;
    private final ProtectedResource resource;

    public Refusals(ProblemRoutes problems, GatewayConfig config) {
        this.problems = problems;
        this.resource = ProtectedResource.of(config);
    }

    /** Sets the rate-limit headers; answers 429 and returns true when the caller's window is spent. */
    public boolean limited(RoutingContext ctx, RateLimits.Decision decision) {
        if (decision == null) {
            return false;
        }
        MultiMap out = ctx.response().headers();
        out.set("X-RateLimit-Limit", Integer.toString(decision.limit()));
        out.set("X-RateLimit-Remaining", Integer.toString(decision.remaining()));
        out.set("X-RateLimit-Reset", Long.toString(decision.resetEpochSecond()));
        if (decision.allowed()) {
            return false;
        }
        out.set("Retry-After", Long.toString(Math.max(1, decision.resetEpochSecond() - Instant.now().getEpochSecond())));
        problems.write(ctx, 429, "The rate limit for this caller is spent until X-RateLimit-Reset.");
        return true;
    }

    public void unauthorized(RoutingContext ctx, String error, String detail) {
        ctx.response().headers().set("WWW-Authenticate",
                resource.withMetadata("Bearer realm=\"ziggurat\", error=\"" + error + "\""));
        problems.write(ctx, 401, detail);
    }

    /**
     * A refused DPoP call (RFC 9449 §7.1): the DPoP challenge, with the algorithms proofs may use,
     * and a nonce for the next proof ({@code DPoP-Nonce}, §9; {@code error="use_dpop_nonce"} when
     * the proof lacked a good one).
     */
    public void unauthorizedDpop(RoutingContext ctx, String error, String detail, String algorithms, String nonce) {
        ctx.response().headers().set("WWW-Authenticate",
                        resource.withMetadata("DPoP algs=\"" + algorithms + "\", error=\"" + error + "\""))
                .set("DPoP-Nonce", nonce);
        problems.write(ctx, 401, detail);
    }

    public void problem(RoutingContext ctx, int status, String detail) {
        problems.write(ctx, status, detail);
    }
}
