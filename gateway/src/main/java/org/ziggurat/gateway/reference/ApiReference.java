package org.ziggurat.gateway.reference;

import org.ziggurat.gateway.GatewayConfig;
import org.ziggurat.gateway.limits.Refusals;
import org.ziggurat.gateway.route.PublicRoutes;

import java.io.IOException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.ext.web.RoutingContext;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code /openapi}: the merged OpenAPI document of the public API, built from the services' own
 * documents; {@code /docs} and its files: the same in Swagger UI ({@link ApiViewer}).
 *
 * <p>The document is never partial: until every service's document has been read whole, it is a
 * 503 "not ready" with Retry-After. Each service's document is read from start-up on, and a read
 * that fails (a timeout under load, a service not up yet) is tried again with backoff and a longer
 * timeout, never given up, so no slow moment decides what is served for good. A document read is
 * read again every minute to follow a redeployed service; a read that fails then keeps the one
 * before. Every replica does this on its own, and all serve the same bytes for the same services.
 */
@Singleton // called on every request: no client proxy in between (GatewayProxy)
public class ApiReference {

    private static final Logger LOG = Logger.getLogger(ApiReference.class);
    static final List<String> ORDER = List.of(PublicRoutes.AUTH, PublicRoutes.DIRECTORY, PublicRoutes.VOCAB,
            PublicRoutes.EVENTS);
    /** The name of the gateway's own document among the services' (its operations, not routed anywhere). */
    static final String GATEWAY = "gateway";
    /** The gateway's own operations (RFC 9728 metadata): a resource, since no service describes them. */
    static final String OWN_DOCUMENT = "/openapi/gateway.json";
    /** How often a document that was read is read again. */
    private static final long REFRESH_MILLIS = 60_000;
    private static final long FIRST_RETRY_MILLIS = 500;
    private static final long MAX_RETRY_MILLIS = 10_000;
    private static final long MAX_TIMEOUT_MILLIS = 30_000;

    private final GatewayConfig config;
    private final ObjectMapper mapper;
    private final Refusals refusals;

    ApiReference(GatewayConfig config, ObjectMapper mapper, Refusals refusals) {
        this.config = config;
        this.mapper = mapper;
        this.refusals = refusals;
    }

    private Vertx vertx;
    private HttpClient client;
    private ApiViewer viewer;
    /** Each service's document as last read whole. */
    private final Map<String, JsonNode> documents = new ConcurrentHashMap<>();
    /** When each service's next read starts (epoch millis; now or past while one is under way). */
    private final Map<String, Long> nextRead = new ConcurrentHashMap<>();
    /** The merged document as served; null until every service's document was read. */
    private volatile Buffer merged;
    private volatile boolean stopped;
    /** The gateway's own document, read once (rebuild is synchronized). */
    private JsonNode own;

    public void init(Vertx vertx) {
        this.vertx = vertx;
        client = vertx.createHttpClient();
        viewer = new ApiViewer(config.publicBaseUrl().getPath());
        for (String service : ORDER) {
            read(service, 0);
        }
    }

    @PreDestroy
    void stop() {
        stopped = true;
    }

    public boolean handles(String path) {
        return path.equals("/openapi") || viewer.handles(path);
    }

    public void serve(RoutingContext ctx, String path) {
        if (!path.equals("/openapi")) {
            viewer.serve(ctx, path);
            return;
        }
        Buffer doc = merged;
        if (doc == null) {
            notReady(ctx);
            return;
        }
        ctx.response().putHeader("Content-Type", "application/json").putHeader("Cache-Control", "public, max-age=60")
                .end(doc);
    }

    private void notReady(RoutingContext ctx) {
        long now = System.currentTimeMillis();
        List<String> missing = ORDER.stream().filter(s -> !documents.containsKey(s)).toList();
        long soonest = missing.stream().mapToLong(s -> nextRead.getOrDefault(s, now)).min().orElse(now);
        ctx.response().putHeader("Retry-After", Long.toString(Math.max(1, (soonest - now + 999) / 1000)))
                .putHeader("Cache-Control", "no-store");
        refusals.problem(ctx, 503, missing.isEmpty() ? "The API's description is not ready."
                : "The API's description is not ready: the OpenAPI document of " + String.join(", ", missing)
                        + " has not been read yet. Try again after Retry-After.");
    }

    /** Reads one service's document; {@code failed}: the reads of it that failed in a row before this one. */
    private void read(String service, int failed) {
        if (stopped) {
            return;
        }
        nextRead.put(service, System.currentTimeMillis());
        long timeout = Math.min(config.openapiTimeout().toMillis() << Math.min(failed, 10), MAX_TIMEOUT_MILLIS);
        fetch(service, timeout).onComplete(result -> {
            if (stopped) {
                return;
            }
            if (result.succeeded()) {
                if (failed > 0) {
                    LOG.infof("OpenAPI document of %s read after %d failed attempts", service, failed);
                }
                if (!result.result().equals(documents.put(service, result.result()))) {
                    rebuild();
                }
                later(service, REFRESH_MILLIS, 0);
                return;
            }
            long wait = Math.min(MAX_RETRY_MILLIS, FIRST_RETRY_MILLIS << Math.min(failed, 10));
            wait = wait / 2 + ThreadLocalRandom.current().nextLong(wait / 2 + 1); // replicas apart
            LOG.warnf("OpenAPI document of %s unavailable (%s), read again in %d ms: %s", service,
                    documents.containsKey(service) ? "the one read before is kept" : "the API's description is not ready",
                    wait, result.cause().toString());
            later(service, wait, failed + 1);
        });
    }

    private void later(String service, long millis, int failed) {
        if (stopped) {
            return;
        }
        nextRead.put(service, System.currentTimeMillis() + millis);
        try {
            vertx.setTimer(millis, id -> read(service, failed));
        } catch (RuntimeException closing) {
            LOG.debugf("No further read of %s's OpenAPI document: %s", service, closing);
        }
    }

    /** The merged document, once every service's document is there; never from some of them. */
    private synchronized void rebuild() {
        Map<String, JsonNode> all = new LinkedHashMap<>();
        for (String service : ORDER) {
            JsonNode doc = documents.get(service);
            if (doc == null) {
                return;
            }
            all.put(service, doc);
        }
        // Last: its tag comes after the services'.
        all.put(GATEWAY, ownDocument());
        try {
            ObjectNode doc = OpenApiMerge.merge(all, config.publicBaseUrl().toString());
            GatewayContract.apply(doc, config.publicBaseUrl().toString(), config.rateLimit().enabled());
            merged = Buffer.buffer(doc.toPrettyString());
        } catch (RuntimeException e) {
            LOG.error("The services' OpenAPI documents cannot be merged", e);
        }
    }

    private JsonNode ownDocument() {
        if (own == null) {
            try (var in = ApiReference.class.getResourceAsStream(OWN_DOCUMENT)) {
                own = mapper.readTree(in);
            } catch (IOException | RuntimeException e) {
                throw new IllegalStateException("the gateway's own OpenAPI document " + OWN_DOCUMENT + " cannot be read", e);
            }
        }
        return own;
    }

    private Future<JsonNode> fetch(String service, long timeoutMillis) {
        URI upstream = config.upstreams().get(service);
        return client.request(new RequestOptions().setMethod(HttpMethod.GET).setHost(upstream.getHost())
                        .setPort(upstream.getPort() > 0 ? upstream.getPort() : 80).setURI("/q/openapi?format=json")
                        .setTimeout(timeoutMillis).putHeader("Accept", "application/json"))
                .compose(request -> request.send())
                .compose(response -> response.statusCode() == 200 ? response.body()
                        : Future.failedFuture("status " + response.statusCode()))
                .map(body -> {
                    try {
                        JsonNode doc = mapper.readTree(body.getBytes());
                        if (doc == null || !doc.path("paths").isObject()) {
                            throw new IllegalStateException("not an OpenAPI document");
                        }
                        return doc;
                    } catch (IOException e) {
                        throw new IllegalStateException("not JSON", e);
                    }
                });
    }
}
