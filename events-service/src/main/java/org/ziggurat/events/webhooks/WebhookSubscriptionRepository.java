package org.ziggurat.events.webhooks;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import org.ziggurat.events.audit.AuditRepository;
import org.ziggurat.platform.data.RowMissing;

import java.time.Duration;
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

    /** Whose way to act ended, when: a person's (any when null) through a client (any, or none, when null). Not both null. */
    public record Ended(Long person, String clientId, OffsetDateTime at) {
    }

    /**
     * The end recorded (once, however often it is told), and every webhook it names disabled as one
     * whose creator lost their rights (each in the audit stream), in one transaction: those taken on
     * by the person, through the client, up to the end and the grace after it (tokens from before
     * pass the gateway that long), whatever their state but an earlier stop of this kind. Their ids.
     */
    public Uni<List<Long>> disableMadeBy(Ended ended, Duration grace, String reason) {
        StringBuilder query = new StringBuilder("NOT (state = :disabled AND disabledCause = :creator) "
                + "AND creatorSince <= :until");
        Map<String, Object> parameters = new HashMap<>(Map.of("disabled", WebhookSubscription.DISABLED,
                "creator", WebhookSubscription.CREATOR, "until", ended.at().plus(grace)));
        if (ended.person() != null) {
            query.append(" AND creatorId = :person");
            parameters.put("person", ended.person());
        }
        if (ended.clientId() != null) {
            query.append(" AND creatorClientId = :client");
            parameters.put("client", ended.clientId());
        }
        return Panache.withTransaction(() -> Panache.getSession().chain(session -> session.createNativeQuery(
                        "WITH old AS (DELETE FROM ended_access WHERE ended_at < now() - interval '1 day') "
                                + "INSERT INTO ended_access (person_id, client_id, ended_at) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING")
                        .setParameter(1, ended.person()).setParameter(2, ended.clientId()).setParameter(3, ended.at())
                        .executeUpdate())
                .chain(() -> WebhookSubscription.<WebhookSubscription>find(query.toString(), parameters)
                        .withLock(LockModeType.PESSIMISTIC_WRITE).<WebhookSubscription>list())
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
        return Panache.withTransaction(() -> locked(namespace, repository, id).invoke(change)
                .call(s -> audit(type, s, actor)));
    }

    /** With its deliveries and their log (ON DELETE CASCADE); the subscription as it was. */
    public Uni<WebhookSubscription> delete(String namespace, String repository, long id, long actor) {
        return Panache.withTransaction(() -> locked(namespace, repository, id).call(s -> s.delete())
                .call(s -> audit("webhook.deleted", s, actor)));
    }

    /**
     * As {@link #found}, its row locked until the change commits: a change read before a stop
     * (disableMadeBy, the delivery worker's) would otherwise write the old state back after it.
     */
    private static Uni<WebhookSubscription> locked(String namespace, String repository, long id) {
        return WebhookSubscription.<WebhookSubscription>findById(id, LockModeType.PESSIMISTIC_WRITE).map(s -> here(s,
                namespace, repository));
    }

    private static Uni<WebhookSubscription> found(String namespace, String repository, long id) {
        return WebhookSubscription.<WebhookSubscription>findById(id).map(s -> here(s, namespace, repository));
    }

    private static WebhookSubscription here(WebhookSubscription s, String namespace, String repository) {
        if (s == null || !Objects.equals(s.namespace, namespace) || !Objects.equals(s.repository, repository)) {
            throw new RowMissing("No such webhook.");
        }
        return s;
    }
}
