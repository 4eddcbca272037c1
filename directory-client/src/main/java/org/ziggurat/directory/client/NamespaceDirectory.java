package org.ziggurat.directory.client;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.ziggurat.platform.problem.DependencyUnavailable;
import org.ziggurat.platform.problem.NetworkFailures;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Caller;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

/**
 * A namespace and what the caller may do in it, as directory-service's internal API says
 * ({@code GET /internal/namespaces/:name?person_id=&second_factor_sign_in=}), cached for a few
 * seconds per namespace, person and whether they signed in with a second factor. The facts only: what a service allows with them is its own rule
 * ({@code NamespaceAccess}, checked in its service layer).
 */
@ApplicationScoped
public class NamespaceDirectory {

    /** Compiled once: every read and write of namespaced content checks its name. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9-]{1,39}");

    /** How long a namespace's answer is kept (see {@link #lookup}). */
    @ConfigMapping(prefix = "ziggurat.namespaces")
    public interface Settings {
        @WithDefault("5s")
        Duration cacheTtl();
    }

    private final DirectoryClient directory;
    private final Duration cacheTtl;

    NamespaceDirectory(@RestClient DirectoryClient directory, Settings settings) {
        this.directory = directory;
        this.cacheTtl = settings.cacheTtl();
    }

    private volatile AsyncCache<String, Namespace> cache;

    /** The namespace and the caller's rights in it; 404 when no namespace is called so. */
    public Uni<Namespace> lookup(String namespace, Caller caller) {
        if (namespace == null || !NAME.matcher(namespace).matches()) {
            return Uni.createFrom().failure(notFound(namespace));
        }
        long person = caller.userId().orElse(0L);
        // A member's rights in an organization that requires a second factor depend on the sign-in too.
        boolean secondFactorSignIn = caller.signedInWithSecondFactor();
        String key = namespace.toLowerCase() + "|" + person + (secondFactorSignIn ? "|mfa" : "");
        // An unknown name is an answer too (cached like the others), not a failure. Each request
        // waits on a copy of the shared look-up: a request whose caller went away is cancelled, and
        // Mutiny cancels the future it waits on, which, shared, failed every other request for
        // the namespace with a CancellationException (500s, seen when a load generator stopped).
        return Uni.createFrom().completionStage(() -> cache().get(key, (k, executor) ->
                        fetch(namespace, person, secondFactorSignIn)).copy())
                .map(ns -> {
                    if (ns == Namespace.UNKNOWN) {
                        throw notFound(namespace);
                    }
                    return ns;
                });
    }

    private CompletableFuture<Namespace> fetch(String namespace, long person, boolean secondFactorSignIn) {
        return directory.namespace(namespace, person, secondFactorSignIn)
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
