package org.ziggurat.events.webhooks;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.platform.data.RowMissing;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The subscriptions, through Hibernate Reactive with Panache: each change one transaction. A
 * subscription is found only at its own place (namespace, and repository or none): another
 * namespace's id, or a namespace's under a repository's path, is 404 as an unknown one.
 */
@ApplicationScoped
public class WebhookSubscriptionRepository {

    /** Saved, or null when the namespace has {@code most} already (counted in the same transaction). */
    public Uni<WebhookSubscription> create(WebhookSubscription made, int most) {
        return Panache.withTransaction(() -> WebhookSubscription.count("namespace", made.namespace).chain(count -> {
            return count >= most ? Uni.createFrom().<WebhookSubscription>nullItem() : made.<WebhookSubscription>persist();
        }));
    }

    public Uni<List<WebhookSubscription>> at(String namespace, String repository) {
        return Panache.withSession(() -> repository == null
                ? WebhookSubscription.<WebhookSubscription>list("namespace = ?1 AND repository IS NULL ORDER BY id", namespace)
                : WebhookSubscription.<WebhookSubscription>list("namespace = ?1 AND repository = ?2 ORDER BY id", namespace,
                        repository));
    }

    public Uni<WebhookSubscription> find(String namespace, String repository, long id) {
        return Panache.withSession(() -> found(namespace, repository, id));
    }

    /** The change applied and saved in one transaction; the subscription as saved. */
    public Uni<WebhookSubscription> change(String namespace, String repository, long id, Consumer<WebhookSubscription> change) {
        return Panache.withTransaction(() -> found(namespace, repository, id).invoke(change));
    }

    /** With its deliveries and their log (ON DELETE CASCADE); the subscription as it was. */
    public Uni<WebhookSubscription> delete(String namespace, String repository, long id) {
        return Panache.withTransaction(() -> found(namespace, repository, id).call(s -> s.delete()));
    }

    private static Uni<WebhookSubscription> found(String namespace, String repository, long id) {
        return WebhookSubscription.<WebhookSubscription>findById(id).map(s -> {
            if (s == null || !s.namespace.equals(namespace) || !Objects.equals(s.repository, repository)) {
                throw new RowMissing("No such webhook.");
            }
            return s;
        });
    }
}
