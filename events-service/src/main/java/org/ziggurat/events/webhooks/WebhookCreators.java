package org.ziggurat.events.webhooks;

import com.github.benmanes.caffeine.cache.AsyncLoadingCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.ziggurat.directory.client.DirectoryClient;
import org.ziggurat.directory.client.NamespaceDirectory;
import org.ziggurat.events.Operators;
import org.ziggurat.platform.problem.DependencyUnavailable;
import org.ziggurat.platform.problem.NetworkFailures;

/**
 * Whether the person who answers for a webhook (its creator, or who last made it active or changed
 * its target) still has the rights that let them: checked before every delivery, so that a webhook
 * stops when they lose them. A namespace's: they are still its admin, as the directory says (asked
 * for them as if signed in with their second factor: a member of an organization that requires one
 * and has none has an outsider's rights there), each answer kept as the namespaces' rights are
 * ({@code ziggurat.namespaces.cache-ttl}, 5 s). The audit stream's: they are still one of the
 * operators, and made it with their own token, not one issued to an application.
 */
@ApplicationScoped
public class WebhookCreators {

    private final Operators operators;
    private final DirectoryClient directory;
    private final AsyncLoadingCache<String, Boolean> admins;

    WebhookCreators(Operators operators, @RestClient DirectoryClient directory, NamespaceDirectory.Settings settings) {
        this.operators = operators;
        this.directory = directory;
        // An answer is never used older than the TTL; one past half of it is asked again in the
        // background at its next use, so a lane's deliveries do not each wait for the directory in turn.
        this.admins = Caffeine.newBuilder().maximumSize(20_000).expireAfterWrite(settings.cacheTtl())
                .refreshAfterWrite(settings.cacheTtl().dividedBy(2)).buildAsync((key, executor) -> {
                    int bar = key.lastIndexOf('|');
                    return admin(key.substring(0, bar), Long.parseLong(key.substring(bar + 1)));
                });
    }

    /**
     * Null while its creator may still have the delivery sent; else why not, in words for its
     * admins. Fails (DependencyUnavailable) when the directory cannot say: nothing is sent then.
     */
    public Uni<String> lostRights(WebhookDeliveryRepository.Claimed delivery) {
        long creator = delivery.creatorId();
        if (delivery.subscriptionNamespace() == null) {
            if (!operators.isOperator(creator)) {
                return Uni.createFrom().item("Its creator (person " + creator + ") is no longer one of the platform's "
                        + "operators. An operator makes it active again with their own token, and answers for it from then on.");
            }
            if (delivery.creatorClientId() != null) {
                return Uni.createFrom().item("It was made with a token issued to an application (" + delivery.creatorClientId()
                        + "), not an operator's own. An operator makes it active again with their own token, and answers "
                        + "for it from then on.");
            }
            return Uni.createFrom().nullItem();
        }
        String namespace = delivery.subscriptionNamespace();
        return isAdmin(namespace, creator).chain(admin -> !admin ? Uni.createFrom().item("Its creator (person " + creator
                + ") is no longer an admin of " + namespace + ". An admin makes it active again (PATCH its \"active\" to "
                + "true), and answers for it from then on.")
                // An end told while a token from before took it on (WebhookRightsFollowUps stops what it sees then).
                : Uni.createFrom().item(!delivery.creatorAccessEnded() ? null : "Its creator's (person " + creator
                        + ") way to act ended (an application's access revoked, or the account recovered) when it was made or "
                        + "taken on. An admin makes it active again (PATCH its \"active\" to true), and answers for it from then on."));
    }

    private Uni<Boolean> isAdmin(String namespace, long person) {
        // A copy of the shared look-up, as NamespaceDirectory's: cancelling one waiter fails no other.
        return Uni.createFrom().completionStage(() -> admins.get(namespace.toLowerCase() + "|" + person).copy());
    }

    private java.util.concurrent.CompletableFuture<Boolean> admin(String namespace, long person) {
        return directory.namespace(namespace, person, true).map(ns -> ns.admin())
                .onFailure(DirectoryClient.NotFound.class).recoverWithItem(false)
                .onFailure(NetworkFailures::is)
                .transform(e -> new DependencyUnavailable("directory-service is not reachable", e))
                .subscribeAsCompletionStage();
    }
}
