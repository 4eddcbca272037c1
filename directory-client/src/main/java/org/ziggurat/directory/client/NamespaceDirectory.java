package org.ziggurat.directory.client;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.ziggurat.platform.problem.DependencyUnavailable;
import org.ziggurat.platform.problem.NetworkFailures;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Caller;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
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

    private final DirectoryClient directory;

    NamespaceRights(@RestClient DirectoryClient directory) {
        this.directory = directory;
    }

    @ConfigProperty(name = "ziggurat.namespaces.cache-ttl", defaultValue = "5s")
    Duration cacheTtl;

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
                        fetch(namespace, person)).copy())
                .map(ns -> {
                    if (ns == Namespace.UNKNOWN) {
                        throw notFound(namespace);
                    }
                    return ns;
                });
    }

    private CompletableFuture<Namespace> fetch(String namespace, long person) {
        return directory.namespace(namespace, person)
                .onFailure(DirectoryClient.NotFound.class).recoverWithItem(Namespace.UNKNOWN)
                .onFailure(NetworkFailures::is)
                .transform(failure -> new DependencyUnavailable("directory-service is not reachable", failure))
                .subscribeAsCompletionStage();
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
