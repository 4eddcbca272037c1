package org.ziggurat.gateway.pipeline;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Singleton;
import org.ziggurat.gateway.GatewayConfig;
import org.ziggurat.gateway.ProtectedResource;
import org.ziggurat.gateway.identity.DpopProofs;
import org.ziggurat.gateway.limits.Refusals;
import org.ziggurat.gateway.route.Cors;
import org.ziggurat.gateway.route.PublicRoutes;
import org.ziggurat.platform.token.ScopeNames;

/**
 * The platform API's protected resource metadata (RFC 9728 §3), answered by the gateway itself:
 * it is the resource server, and the only part that knows how tokens are taken at the edge
 * (bearer in the header, DPoP and its algorithms). At the address RFC 9728 §3.1 derives from the
 * identifier ({@code /.well-known/oauth-protected-resource/api}), and under the API's own path
 * space ({@code /api/.well-known/oauth-protected-resource}) for clients that only know that. The
 * other well-known documents are auth-service's and go there.
 */
@Singleton // asked on every request whether it answers: no client proxy in between (GatewayProxy)
public class ProtectedResourceMetadata {

    /** The metrics template of the document. */
    static final String TEMPLATE = ProtectedResource.WELL_KNOWN;
    /** The same for every caller and changed only by a redeploy: caches may keep it a while. */
    static final String CACHE_CONTROL = "public, max-age=3600";

    private final String metadataPath;
    private final Buffer document;
    private final Cors cors;
    private final Refusals refusals;

    public ProtectedResourceMetadata(GatewayConfig config, Cors cors, Refusals refusals) {
        ProtectedResource resource = ProtectedResource.of(config);
        String api = ProtectedResource.trimmed(config.publicBaseUrl().toString());
        this.metadataPath = resource.metadataPath();
        this.cors = cors;
        this.refusals = refusals;
        this.document = Buffer.buffer(new JsonObject()
                .put("resource", resource.identifier())
                // auth-service's issuer is the public API base (its AuthConfig#issuer).
                .put("authorization_servers", new JsonArray().add(api))
                .put("scopes_supported", new JsonArray(ScopeNames.ALL))
                // The query parameter still works for old clients; RFC 6750 §2.3 advises against it.
                .put("bearer_methods_supported", new JsonArray().add("header"))
                .put("dpop_signing_alg_values_supported", new JsonArray(DpopProofs.ALGORITHM_NAME_LIST))
                .put("resource_documentation", api + "/docs")
                .encodePrettily());
    }

    /** Whether {@code publicPath} (the path without its version prefix) is the document's. */
    public boolean handles(String publicPath) {
        return publicPath.equals(ProtectedResource.WELL_KNOWN) || publicPath.equals(metadataPath);
    }

    void serve(RoutingContext ctx, String publicPath) {
        HttpMethod method = ctx.request().method();
        if (cors.apply(ctx, new PublicRoutes.Route("gateway", publicPath)) && method == HttpMethod.OPTIONS) {
            return; // a preflight, answered
        }
        if (method != HttpMethod.GET && method != HttpMethod.HEAD) {
            ctx.response().putHeader("Allow", "GET, HEAD");
            refusals.problem(ctx, 405, "This document can only be read (GET).");
            return;
        }
        ctx.response().putHeader("Content-Type", "application/json").putHeader("Cache-Control", CACHE_CONTROL)
                .putHeader("X-Content-Type-Options", "nosniff").end(document);
    }
}
