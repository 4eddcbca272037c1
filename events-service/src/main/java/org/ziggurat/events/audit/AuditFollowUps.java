package org.ziggurat.events.audit;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;

import java.time.OffsetDateTime;

/**
 * What this service does when another tells of a change: implemented where the consequence lives
 * (the webhooks), so that the stream depends on none of them. Each is idempotent: a source tells of
 * an event again until it was answered, and the follow-up runs again with it.
 */
public interface AuditFollowUps {

    Uni<Void> told(String source, String type, JsonObject data, OffsetDateTime occurredAt);
}
