package org.ziggurat.gateway.reference;

import org.ziggurat.gateway.GatewayConfig;
import org.ziggurat.gateway.pipeline.GatewayProxy;
import org.ziggurat.gateway.route.PublicRoutes;

import java.io.IOException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code /openapi}: the merged OpenAPI document of the public API, built from the services' own
 * documents (cached for a minute); {@code /docs} and its files: the same in Swagger UI ({@link ApiViewer}).
 */
@Singleton // called on every request: no client proxy in between (GatewayProxy)
public class ApiReference {

    private static final Logger LOG = Logger.getLogger(ApiReference.class);
    private static final long CACHE_MILLIS = 60_000;
    private static final List<String> ORDER = List.of(PublicRoutes.AUTH, PublicRoutes.DIRECTORY, PublicRoutes.VOCAB,
            PublicRoutes.EVENTS);

    private final GatewayConfig config;
    private final ObjectMapper mapper;

    ApiReference(GatewayConfig config, ObjectMapper mapper) {
        this.config = config;
        this.mapper = mapper;
    }

    private HttpClient client;
    private ApiViewer viewer;
    private volatile ObjectNode cached;
    private volatile long cachedAt;

    public void init(Vertx vertx) {
        client = vertx.createHttpClient();
        viewer = new ApiViewer(config.publicBaseUrl().getPath());
    }

    public boolean handles(String path) {
        return path.equals("/openapi") || viewer.handles(path);
    }

    public void serve(RoutingContext ctx, String path) {
        if (!path.equals("/openapi")) {
            viewer.serve(ctx, path);
            return;
        }
        document().onComplete(result -> {
            if (result.failed()) {
                ctx.fail(result.cause());
                return;
            }
            ctx.response().putHeader("Content-Type", "application/json").putHeader("Cache-Control", "public, max-age=60")
                    .end(result.result().toPrettyString());
        });
    }

    private Future<ObjectNode> document() {
        ObjectNode doc = cached;
        if (doc != null && System.currentTimeMillis() - cachedAt < CACHE_MILLIS) {
            return Future.succeededFuture(doc);
        }
        List<Future<JsonNode>> fetches = new ArrayList<>();
        for (String service : ORDER) {
            fetches.add(fetch(service).recover(failure -> {
                LOG.warnf("OpenAPI document of %s unavailable: %s", service, failure.toString());
                return Future.succeededFuture(null);
            }));
        }
        return Future.join(new ArrayList<>(fetches)).map(all -> {
            Map<String, JsonNode> documents = new LinkedHashMap<>();
            List<String> unavailable = new ArrayList<>();
            for (int i = 0; i < ORDER.size(); i++) {
                JsonNode d = fetches.get(i).result();
                if (d == null) {
                    unavailable.add(ORDER.get(i));
                } else {
                    documents.put(ORDER.get(i), d);
                }
            }
            ObjectNode merged = OpenApiMerge.merge(documents, config.publicBaseUrl().toString(), unavailable);
            GatewayContract.apply(merged, config.publicBaseUrl().toString(), config.rateLimit().enabled());
            if (unavailable.isEmpty()) {
                cached = merged;
                cachedAt = System.currentTimeMillis();
            }
            return merged;
        });
    }

    private Future<JsonNode> fetch(String service) {
        URI upstream = config.upstreams().get(service);
        return client.request(new RequestOptions().setMethod(HttpMethod.GET).setHost(upstream.getHost())
                        .setPort(upstream.getPort() > 0 ? upstream.getPort() : 80).setURI("/q/openapi?format=json")
                        .setTimeout(3000).putHeader("Accept", "application/json"))
                .compose(request -> request.send())
                .compose(response -> response.statusCode() == 200 ? response.body()
                        : Future.failedFuture("status " + response.statusCode()))
                .map(body -> {
                    try {
                        return mapper.readTree(body.getBytes());
                    } catch (IOException e) {
                        throw new IllegalStateException("not JSON", e);
                    }
                });
    }
}
