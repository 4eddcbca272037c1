package org.ziggurat.events.webhooks;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.events.audit.AuditFollowUps;

import java.time.OffsetDateTime;

/**
 * Webhooks that stop because of what another service tells the audit stream. One made with a
 * person's token issued to an application answers to that person's grant to it: when auth-service
 * tells that the grant was revoked, narrowed below {@code admin}, or the application deleted, each
 * webhook made through it stops. And when directory-service tells that the first recovery link of
 * an account nobody had proven removed every way in set up before it, the webhooks its maker set up
 * before stop too (its namespace is the recovered owner's now, and its events would go on to the
 * maker's receivers). Each is disabled as one whose creator lost their rights (nothing sent, its
 * admins told, the change in the stream) until an admin makes it active again and answers for it.
 */
@ApplicationScoped
public class WebhookRightsFollowUps implements AuditFollowUps {

    private static final Logger LOG = Logger.getLogger(WebhookRightsFollowUps.class);
    private static final String AGAIN = " An admin makes it active again (PATCH its \"active\" to true), and answers for it "
            + "from then on.";

    private final WebhookSubscriptionRepository subscriptions;
    private final WebhookSettings settings;

    WebhookRightsFollowUps(WebhookSubscriptionRepository subscriptions, WebhookSettings settings) {
        this.subscriptions = subscriptions;
        this.settings = settings;
    }

    @Override
    public Uni<Void> told(String source, String type, JsonObject data, OffsetDateTime occurredAt) {
        Long person = data.getValue("person_id") instanceof Number n ? n.longValue() : null;
        if ("directory-service".equals(source) && "account.unproven_access_removed".equals(type) && person != null) {
            return stop(new WebhookSubscriptionRepository.Ended(person, null, occurredAt), "Its creator's (person " + person
                    + ") account was recovered by the owner of its address, who had never proven it theirs before: what "
                    + "was set up before is stopped.", "unproven_account_recovered");
        }
        String clientId = data.getValue("client_id") instanceof String s ? s : null;
        if (!"auth-service".equals(source) || clientId == null) {
            return Uni.createFrom().voidItem();
        }
        return switch (type) {
            case "application.deleted" -> stop(new WebhookSubscriptionRepository.Ended(null, clientId, occurredAt),
                    "The application " + clientId + " it was made through was deleted.", "application_deleted");
            case "authorization.revoked" -> person == null ? Uni.createFrom().voidItem()
                    : stop(new WebhookSubscriptionRepository.Ended(person, clientId, occurredAt), "Its creator (person " + person
                            + ") revoked the access of the application " + clientId + " it was made through.",
                            "application_access_revoked");
            case "authorization.changed" -> person == null || data.getJsonArray("scopes", new JsonArray()).contains("admin")
                    ? Uni.createFrom().voidItem()
                    : stop(new WebhookSubscriptionRepository.Ended(person, clientId, occurredAt), "Its creator (person " + person
                            + ") no longer lets the application " + clientId + " it was made through act as an admin.",
                            "application_access_narrowed");
            default -> Uni.createFrom().voidItem();
        };
    }

    private Uni<Void> stop(WebhookSubscriptionRepository.Ended ended, String why, String logReason) {
        return subscriptions.disableMadeBy(ended, settings.endedAccessGrace(), why + AGAIN)
                .invoke(stopped -> stopped.forEach(id -> LOG.warnf("event=webhook_disabled subscription_id=%d reason=%s", id,
                        logReason)))
                .replaceWithVoid();
    }
}
