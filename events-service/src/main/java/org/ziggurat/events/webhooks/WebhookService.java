package org.ziggurat.events.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.events.audit.AuditService;
import org.ziggurat.events.data.EventInput;
import org.ziggurat.platform.input.FieldChecks;
import org.ziggurat.platform.paging.PageRequest;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.rest.http.PublicUrls;
import org.ziggurat.platform.token.Caller;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A namespace's webhooks, and its repositories': made, read, changed and removed by the
 * namespace's admins only (with the {@code admin} scope), as its settings are; anyone else who may
 * read the namespace is refused (403), anyone who may not finds nothing (404). The audit stream's
 * are its operators' (their own token only: {@link WebhookAdmins}). Each is a
 * {@link WebhookSubscription}, which records who answers for it (who made it, or last made it
 * active or changed its target, and with which client's token): its deliveries stop when that
 * person loses the rights ({@link WebhookCreators}). The deliveries and their log are
 * {@link WebhookDeliveryRepository}'.
 */
@ApplicationScoped
public class WebhookService {

    private static final Logger SECURITY = Logger.getLogger("org.ziggurat.events.security");
    static final int MAX_DESCRIPTION = 255;

    private final WebhookAdmins admins;
    private final TargetAddresses targets;
    private final WebhookSecrets secrets;
    private final WebhookDeliveryRepository deliveries;
    private final WebhookSubscriptionRepository subscriptions;
    private final WebhookSettings settings;

    WebhookService(WebhookAdmins admins, TargetAddresses targets, WebhookSecrets secrets,
            WebhookDeliveryRepository deliveries, WebhookSubscriptionRepository subscriptions, WebhookSettings settings) {
        this.subscriptions = subscriptions;
        this.admins = admins;
        this.targets = targets;
        this.secrets = secrets;
        this.deliveries = deliveries;
        this.settings = settings;
    }

    /**
     * Where webhooks live: a namespace, or one of its repositories ({@code repository} not null),
     * or the audit stream ({@link #AUDIT}: no namespace).
     */
    public record Place(String namespace, String repository) {
        public static final Place AUDIT = new Place(null, null);

        boolean audit() {
            return namespace == null;
        }

        /** The path of its webhooks' URLs, before {@code /webhooks}. */
        String path() {
            return audit() ? "/audit" : "/" + namespace + (repository == null ? "" : "/repositories/" + repository);
        }
    }

    /** What a place's webhooks may take: data events' kinds, or the audit stream's categories. */
    static List<String> known(Place place) {
        return place.audit() ? AuditService.CATEGORIES : EventInput.KINDS;
    }

    public Uni<WebhookViews.Webhook> create(Place place, JsonNode body, Caller caller, PublicUrls urls) {
        FieldChecks.object(body);
        FieldChecks errors = new FieldChecks();
        String url = errors.string(body.get("url"), "url", TargetAddresses.MAX_URL_LENGTH, true);
        List<String> kinds = kinds(body.get("events"), errors, known(place));
        Boolean active = body.has("active") ? errors.bool(body.get("active"), "active") : Boolean.TRUE;
        String description = errors.string(body.get("description"), "description", MAX_DESCRIPTION, false);
        errors.throwIfFailed("The webhook is not valid.");
        return admins.administered(place, caller).call(ns -> admins.notEnded(caller)).chain(ns -> checkedUrl(url).chain(() -> {
            String secret = secrets.generate();
            OffsetDateTime now = now();
            WebhookSubscription made = new WebhookSubscription();
            made.namespace = ns;
            made.stream = place.audit() ? "audit" : "data";
            made.repository = place.repository();
            made.targetUrl = url;
            made.kinds = kinds.toArray(String[]::new);
            made.description = description == null ? "" : description;
            made.state = Boolean.FALSE.equals(active) ? WebhookSubscription.PAUSED : WebhookSubscription.ACTIVE;
            made.secretSealed = secrets.seal(secret);
            made.apiBase = urls.apiBase();
            made.creatorId = caller.requireUser();
            made.creatorClientId = caller.clientId().orElse(null);
            made.createdAt = now;
            made.updatedAt = now;
            made.creatorSince = now;
            return subscriptions.create(made, settings.maxPerNamespace()).map(saved -> {
                if (saved == null) {
                    throw ProblemException.conflict("A namespace may have at most " + settings.maxPerNamespace()
                            + " webhooks, its repositories' included.");
                }
                SECURITY.infof("event=webhook_created webhook_id=%d namespace=%s repository=%s person_id=%d",
                        saved.id, saved.namespace, saved.repository, saved.creatorId);
                return WebhookViews.webhook(saved, urls, secret);
            });
        }));
    }

    public Uni<List<WebhookViews.Webhook>> list(Place place, Caller caller, PublicUrls urls) {
        return admins.administered(place, caller).chain(ns -> subscriptions.at(ns, place.repository()))
                .map(all -> all.stream().map(s -> WebhookViews.webhook(s, urls, null)).toList());
    }

    public Uni<WebhookViews.Webhook> get(Place place, long id, Caller caller, PublicUrls urls) {
        return admins.administered(place, caller)
                .chain(ns -> subscriptions.find(ns, place.repository(), id)).map(s -> WebhookViews.webhook(s, urls, null));
    }

    /** Changes what the body names: {@code url}, {@code events}, {@code description}, {@code active}. */
    public Uni<WebhookViews.Webhook> update(Place place, long id, JsonNode body, Caller caller, PublicUrls urls) {
        FieldChecks.object(body);
        FieldChecks errors = new FieldChecks();
        String url = body.has("url") ? errors.string(body.get("url"), "url", TargetAddresses.MAX_URL_LENGTH, true) : null;
        List<String> kinds = body.has("events") ? kinds(body.get("events"), errors, known(place)) : null;
        Boolean active = body.has("active") ? errors.bool(body.get("active"), "active") : null;
        String description = body.has("description") ? errors.string(body.get("description"), "description", MAX_DESCRIPTION, false)
                : null;
        errors.throwIfFailed("The webhook is not valid.");
        boolean takesItOn = url != null || Boolean.TRUE.equals(active);
        return admins.administered(place, caller).call(ns -> takesItOn ? admins.notEnded(caller) : Uni.createFrom().voidItem())
                .chain(ns -> (url == null ? Uni.createFrom().voidItem() : checkedUrl(url)).chain(() -> subscriptions.change(
                        ns, place.repository(), id, s -> {
                            if (url != null) {
                                s.targetUrl = url;
                            }
                            if (kinds != null) {
                                s.kinds = kinds.toArray(String[]::new);
                            }
                            if (description != null) {
                                s.description = description;
                            }
                            if (active != null) {
                                s.state = active ? WebhookSubscription.ACTIVE : WebhookSubscription.PAUSED;
                                s.disabledReason = null;
                                s.disabledCause = null;
                                s.noticeDueAt = null;
                            }
                            if (takesItOn) {
                                // Who sends it somewhere, or makes it send again, answers for it from now on:
                                // its deliveries stop when they lose the rights that let them (DeliveryWorker).
                                s.creatorId = caller.requireUser();
                                s.creatorClientId = caller.clientId().orElse(null);
                                s.creatorSince = now();
                            }
                            s.updatedAt = now();
                            SECURITY.infof("event=webhook_changed webhook_id=%d namespace=%s person_id=%d", s.id, s.namespace,
                                    caller.requireUser());
                        }, "webhook.changed", caller.requireUser())).map(s -> WebhookViews.webhook(s, urls, null)));
    }

    public Uni<Void> delete(Place place, long id, Caller caller) {
        return admins.administered(place, caller).chain(ns -> subscriptions.delete(ns, place.repository(), id, caller.requireUser()))
                .invoke(s -> SECURITY.infof("event=webhook_deleted webhook_id=%d namespace=%s person_id=%d", s.id,
                        s.namespace, caller.requireUser()))
                .replaceWithVoid();
    }

    /** A new secret, shown once; the previous one signs beside it for {@link WebhookSettings#rotationOverlap}. */
    public Uni<WebhookViews.Webhook> rotateSecret(Place place, long id, Caller caller, PublicUrls urls) {
        String secret = secrets.generate();
        return admins.administered(place, caller).chain(ns -> subscriptions.change(ns, place.repository(), id, s -> {
            s.previousSecretSealed = s.secretSealed;
            s.previousSecretUntil = now().plus(settings.rotationOverlap());
            s.secretSealed = secrets.seal(secret);
            s.updatedAt = now();
            SECURITY.infof("event=webhook_secret_rotated webhook_id=%d namespace=%s person_id=%d", s.id, s.namespace,
                    caller.requireUser());
        }, "webhook.secret_rotated", caller.requireUser())).map(s -> WebhookViews.webhook(s, urls, secret));
    }

    /** A page of the delivery log, newest first; {@code state} one of pending, delivered, failed, or null. */
    public Uni<List<WebhookDeliveryRepository.LoggedDelivery>> log(Place place, long id, String state, PageRequest page, Caller caller) {
        return subscription(place, id, caller).chain(s -> deliveries.log(s.id, state, page.limit() + 1, page.offset()));
    }

    public Uni<WebhookDeliveryRepository.LoggedDelivery> delivery(Place place, long id, long deliveryId, Caller caller) {
        return subscription(place, id, caller).chain(s -> deliveries.one(s.id, deliveryId))
                .onItem().ifNull().failWith(() -> ProblemException.notFound("No such delivery."));
    }

    /** The delivery sent again (its {@code webhook-id} the same); 409 while it is still queued or under way. */
    public Uni<Void> redeliver(Place place, long id, long deliveryId, Caller caller) {
        return delivery(place, id, deliveryId, caller).chain(found -> deliveries.redeliver(id, deliveryId)).invoke(done -> {
            if (!done) {
                throw ProblemException.conflict("The delivery is still queued or under way.");
            }
        }).replaceWithVoid();
    }

    public Uni<Integer> redeliverFailed(Place place, long id, OffsetDateTime since, Caller caller) {
        return subscription(place, id, caller).chain(s -> deliveries.redeliverFailed(s.id, since));
    }

    private Uni<WebhookSubscription> subscription(Place place, long id, Caller caller) {
        return admins.administered(place, caller).chain(ns -> subscriptions.find(ns, place.repository(), id));
    }

    private Uni<Void> checkedUrl(String url) {
        return targets.check(url).replaceWithVoid().onFailure(TargetAddresses.Refused.class)
                .transform(e -> ProblemException.invalidField("url", e.getMessage()));
    }

    /** The kinds named, each once, in a known order; all of them when the field is absent. */
    static List<String> kinds(JsonNode node, FieldChecks errors, List<String> known) {
        if (node == null || node.isNull()) {
            return known;
        }
        if (!node.isArray() || node.isEmpty()) {
            errors.add("events", "must be a non-empty array of " + String.join(", ", known));
            return known;
        }
        Set<String> named = new LinkedHashSet<>();
        for (JsonNode kind : node) {
            if (!kind.isTextual() || !known.contains(kind.asText())) {
                errors.add("events", "must each be one of " + String.join(", ", known));
                return known;
            }
            named.add(kind.asText());
        }
        List<String> ordered = new ArrayList<>(known);
        ordered.retainAll(named);
        return ordered;
    }

    static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS);
    }

    static List<String> asList(String[] kinds) {
        return kinds == null ? List.of() : Arrays.asList(kinds);
    }
}
