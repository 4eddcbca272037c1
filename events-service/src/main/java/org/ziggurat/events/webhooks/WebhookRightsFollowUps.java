package org.ziggurat.events.webhooks;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.events.audit.AuditFollowUps;

/**
 * A webhook made with a person's token issued to an application answers to that person's grant to
 * it: when auth-service tells the stream that the grant was revoked, narrowed below {@code admin},
 * or the application deleted, each such webhook is disabled as one whose creator lost their rights
 * (nothing sent, its admins told, the change in the stream) until an admin makes it active again
 * and answers for it. A namespace's admin who revokes an application therefore also stops what it
 * set up in their name.
 */
@ApplicationScoped
public class ApplicationAccessEnds implements AuditFollowUps {

    private static final Logger LOG = Logger.getLogger(ApplicationAccessEnds.class);

    private final WebhookSubscriptionRepository subscriptions;

    ApplicationAccessEnds(WebhookSubscriptionRepository subscriptions) {
        this.subscriptions = subscriptions;
    }

    @Override
    public Uni<Void> told(String source, String type, JsonObject data) {
        if (!"auth-service".equals(source)) {
            return Uni.createFrom().voidItem();
        }
        String clientId = data.getValue("client_id") instanceof String s ? s : null;
        Long person = data.getValue("person_id") instanceof Number n ? n.longValue() : null;
        if (clientId == null) {
            return Uni.createFrom().voidItem();
        }
        return switch (type) {
            case "application.deleted" -> stop(clientId, null, "The application " + clientId + " it was made through was "
                    + "deleted.");
            case "authorization.revoked" -> person == null ? Uni.createFrom().voidItem() : stop(clientId, person,
                    "Its creator (person " + person + ") revoked the access of the application " + clientId
                            + " it was made through.");
            case "authorization.changed" -> person == null || data.getJsonArray("scopes", new JsonArray())
                    .contains("admin") ? Uni.createFrom().voidItem() : stop(clientId, person, "Its creator (person " + person
                    + ") no longer lets the application " + clientId + " it was made through act as an admin.");
            default -> Uni.createFrom().voidItem();
        };
    }

    private Uni<Void> stop(String clientId, Long person, String why) {
        return subscriptions.disableMadeThrough(clientId, person, why + " An admin makes it active again (PATCH its "
                        + "\"active\" to true), and answers for it from then on.")
                .invoke(stopped -> stopped.forEach(id -> LOG.warnf("event=webhook_disabled subscription_id=%d client_id=%s "
                        + "reason=application_access_ended", id, clientId)))
                .replaceWithVoid();
    }
}
