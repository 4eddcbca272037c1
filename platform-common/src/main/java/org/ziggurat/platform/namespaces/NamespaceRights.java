package org.ziggurat.platform.namespaces;

import io.vertx.core.Future;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.ziggurat.platform.problem.DependencyUnavailable;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.problem.ProblemMappers;
import org.ziggurat.platform.token.Caller;
import org.ziggurat.platform.token.PlatformClaims;
import org.ziggurat.platform.token.PlatformTokenSigner;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * What the caller may do in a namespace, from directory-service's internal API
 * ({@code GET /internal/namespaces/:name?person_id=}), cached for a few seconds per namespace and
 * person. For the services whose content lives in namespaces (vocabularies, data events).
 * Reading a namespace that is not public needs membership: to others it is 404, as if it did not
 * exist. Writing needs the {@code write} scope (creating) or {@code update} (changing) and write
 * rights.
 */
@ApplicationScoped
public class NamespaceRights {

    /** Compiled once: every read and write of namespaced content checks its name. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9-]{1,39}");

    @Inject
    Vertx vertx;

    @Inject
    PlatformTokenSigner signer;

    @Inject
    ObjectMapper mapper;

    @ConfigProperty(name = "ziggurat.directory.url", defaultValue = "http://127.0.0.1:8082")
    URI directory;

    @ConfigProperty(name = "ziggurat.namespaces.cache-ttl", defaultValue = "5s")
    Duration cacheTtl;

    private volatile HttpClient client;
    private volatile AsyncCache<String, Namespace> cache;

    public Uni<Namespace> forReading(String namespace, Caller caller) {
        return lookup(namespace, caller).map(ns -> {
            if (!ns.read()) {
                throw notFound(namespace);
            }
            return ns;
        });
    }

    /** {@code scope}: {@code write} to create content, {@code update} to change or delete it. */
    public Uni<Namespace> forWriting(String namespace, Caller caller, String scope) {
        caller.requireUserWithScope(scope);
        return forReading(namespace, caller).map(ns -> {
            if (!ns.write()) {
                throw ProblemException.forbidden("You may not write in the namespace '" + ns.name() + "'.");
            }
            return ns;
        });
    }

    private Uni<Namespace> lookup(String namespace, Caller caller) {
        if (namespace == null || !NAME.matcher(namespace).matches()) {
            return Uni.createFrom().failure(notFound(namespace));
        }
        long person = caller.userId().orElse(0L);
        String key = namespace.toLowerCase() + "|" + person;
        // An unknown name is an answer too (cached like the others), not a failure. Each request
        // waits on a copy of the shared look-up: a request whose caller went away is cancelled, and
        // Mutiny cancels the future it waits on, which, shared, failed every other request for
        // the namespace with a CancellationException (500s, seen when a load generator stopped).
        return Uni.createFrom().completionStage(() -> cache().get(key, (k, executor) ->
                        fetch(namespace, person).toCompletionStage().toCompletableFuture()).copy())
                .map(ns -> {
                    if (ns == Namespace.UNKNOWN) {
                        throw notFound(namespace);
                    }
                    return ns;
                });
    }

    private Future<Namespace> fetch(String namespace, long person) {
        String path = "/internal/namespaces/" + URLEncoder.encode(namespace, StandardCharsets.UTF_8) + "?person_id=" + person;
        return client().request(new RequestOptions().setMethod(HttpMethod.GET).setHost(directory.getHost())
                        .setPort(directory.getPort() > 0 ? directory.getPort() : 80).setURI(path).setTimeout(5000)
                        .putHeader(PlatformClaims.HEADER, signer.cachedServiceToken())
                        .putHeader("Accept", "application/json"))
                .compose(request -> request.send())
                .compose(response -> response.body().map(body -> {
                    if (response.statusCode() == 404) {
                        return Namespace.UNKNOWN;
                    }
                    if (response.statusCode() >= 500) {
                        throw new DependencyUnavailable("directory-service answered " + response.statusCode(), null);
                    }
                    if (response.statusCode() != 200) {
                        throw new IllegalStateException("directory-service answered " + response.statusCode());
                    }
                    try {
                        return mapper.readValue(body.getBytes(), Namespace.class);
                    } catch (IOException e) {
                        throw new IllegalStateException("directory-service answered with an unreadable namespace", e);
                    }
                }), failure -> Future.failedFuture(ProblemMappers.connectionFailure(failure)
                        ? new DependencyUnavailable("directory-service is not reachable", failure) : failure));
    }

    private HttpClient client() {
        if (client == null) {
            synchronized (this) {
                if (client == null) {
                    client = vertx.createHttpClient();
                }
            }
        }
        return client;
    }

    private AsyncCache<String, Namespace> cache() {
        if (cache == null) {
            synchronized (this) {
                if (cache == null) {
                    cache = Caffeine.newBuilder().maximumSize(50_000).expireAfterWrite(cacheTtl).buildAsync();
                }
            }
        }
        return cache;
    }

    private static ProblemException notFound(String namespace) {
        return ProblemException.notFound("No namespace is called '" + namespace + "'.");
    }
}
