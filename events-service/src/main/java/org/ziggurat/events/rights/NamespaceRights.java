package org.ziggurat.events.rights;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.ziggurat.events.EventsConfig;
import org.ziggurat.events.directory.DirectoryClient;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Caller;

/**
 * What the caller may do in a namespace, as the directory says (cached for a few seconds per
 * namespace and person). Reading a namespace that is not public needs membership: others get
 * 404, as if it did not exist. Writing needs the {@code write} scope and write rights.
 */
@ApplicationScoped
public class NamespaceRights {

    public static final String WRITE_SCOPE = "write";
    private static final DirectoryClient.Namespace UNKNOWN =
            new DirectoryClient.Namespace("", "unknown", 0, "private", false, false, false);

    @Inject
    @RestClient
    DirectoryClient directory;

    private final AsyncCache<String, DirectoryClient.Namespace> cache;

    @Inject
    public NamespaceRights(EventsConfig config) {
        cache = Caffeine.newBuilder().maximumSize(50_000).expireAfterWrite(config.rightsCacheTtl()).buildAsync();
    }

    public Uni<DirectoryClient.Namespace> forReading(String namespace, Caller caller) {
        return lookup(namespace, caller).map(ns -> {
            if (!ns.read()) {
                throw notFound(namespace);
            }
            return ns;
        });
    }

    public Uni<DirectoryClient.Namespace> forWriting(String namespace, Caller caller) {
        caller.requireUserWithScope(WRITE_SCOPE);
        return lookup(namespace, caller).map(ns -> {
            if (!ns.read()) {
                throw notFound(namespace);
            }
            if (!ns.write()) {
                throw ProblemException.forbidden("You may not write in the namespace '" + ns.name() + "'.");
            }
            return ns;
        });
    }

    private Uni<DirectoryClient.Namespace> lookup(String namespace, Caller caller) {
        if (namespace == null || !namespace.matches("[A-Za-z0-9-]{1,39}")) {
            return Uni.createFrom().failure(notFound(namespace));
        }
        long person = caller.userId().orElse(0L);
        String key = namespace.toLowerCase() + "|" + person;
        // An unknown name is an answer too (cached like the others), not a failure.
        return Uni.createFrom().completionStage(() -> cache.get(key, (k, executor) ->
                        directory.namespace(namespace, person)
                                .onFailure(DirectoryClient.UnknownNamespace.class).recoverWithItem(UNKNOWN)
                                .subscribeAsCompletionStage()))
                .map(ns -> {
                    if (ns == UNKNOWN) {
                        throw notFound(namespace);
                    }
                    return ns;
                });
    }

    private static ProblemException notFound(String namespace) {
        return ProblemException.notFound("No namespace is called '" + namespace + "'.");
    }
}
