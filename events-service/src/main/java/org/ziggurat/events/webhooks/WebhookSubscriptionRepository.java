package org.ziggurat.events.webhooks;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import org.ziggurat.events.audit.AuditRepository;
import org.ziggurat.platform.data.RowMissing;

import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The subscriptions, through Hibernate Reactive with Panache: each change one transaction, with its
 * record in the audit stream. A subscription is found only at its own place (namespace, and
 * repository or none; or the audit stream, namespace null): another namespace's id, or a
 * namespace's under a repository's path, is 404 as an unknown one.
 */
@ApplicationScoped
public class WebhookSubscriptionRepository {

    /** Saved, or null when the namespace has {@code most} already (counted in the same transaction). */
    public Uni<WebhookSubscription> create(WebhookSubscription made, int most) {
        return Panache.withTransaction(() -> (made.namespace == null ? WebhookSubscription.count("stream", "audit")
                : WebhookSubscription.count("namespace", made.namespace)).chain(count -> count >= most
                        ? Uni.createFrom().<WebhookSubscription>nullItem()
                        : made.<WebhookSubscription>persist().call(saved -> audit("webhook.created", saved, saved.creatorId))));
    }

    /**
     * Whose active webhooks: made by the person (any when null), through the client (any, or
     * none, when null), last made active or re-targeted at or before {@code notAfter} (any time when
     * null). Not all null.
     */
    public record MadeBy(Long person, String clientId, OffsetDateTime notAfter) {
    }

    /**
     * Those active webhooks disabled as ones whose creator lost their rights, in one transaction,
     * each in the audit stream; their ids.
     */
    public Uni<List<Long>> disableMadeBy(MadeBy madeBy, String reason) {
        StringBuilder query = new StringBuilder("state = :active");
        Map<String, Object> parameters = new HashMap<>(Map.of("active", WebhookSubscription.ACTIVE));
        if (madeBy.person() != null) {
            query.append(" AND creatorId = :person");
            parameters.put("person", madeBy.person());
        }
        if (madeBy.clientId() != null) {
            query.append(" AND creatorClientId = :client");
            parameters.put("client", madeBy.clientId());
        }
        if (madeBy.notAfter() != null) {
            query.append(" AND updatedAt <= :notAfter");
            parameters.put("notAfter", madeBy.notAfter());
        }
        return Panache.withTransaction(() -> WebhookSubscription.<WebhookSubscription>find(query.toString(), parameters)
                .withLock(LockModeType.PESSIMISTIC_WRITE).<WebhookSubscription>list()
                .call(found -> Multi.createFrom().iterable(found).onItem().transformToUniAndConcatenate(s -> {
                    s.state = WebhookSubscription.DISABLED;
                    s.disabledCause = WebhookSubscription.CREATOR;
                    s.disabledReason = reason;
                    s.noticeDueAt = s.namespace == null ? null : WebhookService.now();
                    s.updatedAt = WebhookService.now();
                    return AuditRepository.recordOwn("webhook.disabled", "webhook/" + s.id, null, data(s)
                            .put("creator_id", s.creatorId).put("reason", reason));
                }).collect().last())
                .map(found -> found.stream().map(s -> s.id).toList()));
    }

    /** The change in the audit stream, in the transaction of the change. */
    private static Uni<Void> audit(String type, WebhookSubscription s, long actor) {
        return AuditRepository.recordOwn(type, "webhook/" + s.id, actor, data(s));
    }

    private static JsonObject data(WebhookSubscription s) {
        return new JsonObject().put("webhook_id", s.id).put("stream", s.stream).put("namespace", s.namespace)
                .put("repository", s.repository).put("target_url", s.targetUrl).put("events", java.util.Arrays.asList(s.kinds))
                .put("state", s.state);
    }

    public Uni<List<WebhookSubscription>> at(String namespace, String repository) {
        return Panache.withSession(() -> namespace == null
                ? WebhookSubscription.<WebhookSubscription>list("stream = 'audit' ORDER BY id")
                : repository == null
                ? WebhookSubscription.<WebhookSubscription>list("namespace = ?1 AND repository IS NULL ORDER BY id", namespace)
                : WebhookSubscription.<WebhookSubscription>list("namespace = ?1 AND repository = ?2 ORDER BY id", namespace,
                        repository));
    }

    public Uni<WebhookSubscription> find(String namespace, String repository, long id) {
        return Panache.withSession(() -> found(namespace, repository, id));
    }

    /** The change applied and saved in one transaction, recorded as {@code type}; the subscription as saved. */
    public Uni<WebhookSubscription> change(String namespace, String repository, long id, Consumer<WebhookSubscription> change,
            String type, long actor) {
        return Panache.withTransaction(() -> found(namespace, repository, id).invoke(change)
                .call(s -> audit(type, s, actor)));
    }

    /** With its deliveries and their log (ON DELETE CASCADE); the subscription as it was. */
    public Uni<WebhookSubscription> delete(String namespace, String repository, long id, long actor) {
        return Panache.withTransaction(() -> found(namespace, repository, id).call(s -> s.delete())
                .call(s -> audit("webhook.deleted", s, actor)));
    }

    private static Uni<WebhookSubscription> found(String namespace, String repository, long id) {
        return WebhookSubscription.<WebhookSubscription>findById(id).map(s -> {
            if (s == null || !Objects.equals(s.namespace, namespace) || !Objects.equals(s.repository, repository)) {
                throw new RowMissing("No such webhook.");
            }
            return s;
        });
    }
}
