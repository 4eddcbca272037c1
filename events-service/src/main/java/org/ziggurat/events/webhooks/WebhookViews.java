package org.ziggurat.events.webhooks;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.ziggurat.platform.rest.http.PublicUrls;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;

/** Webhooks and their delivery log as the API shows them, and what is written to make or change one. */
public final class WebhookViews {

    private WebhookViews() {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @RegisterForReflection
    @Schema(name = "Webhook")
    public record Webhook(long id, String url,
            @Schema(nullable = true, description = "Null: the platform's audit stream.") String namespace,
            @JsonInclude(JsonInclude.Include.ALWAYS) @Schema(nullable = true, description = "Null: every repository of the namespace.") String repository,
            @Schema(description = "Where deliveries are POSTed.") String targetUrl,
            @Schema(description = "The kinds of event sent (the audit stream's: its categories).") List<String> events,
            String description, boolean active,
            @Schema(enumeration = {"active", "paused", "disabled"}, description = "disabled: by the platform, after failing "
                    + "for the retry period, or when the person who answers for it lost the rights that made it "
                    + "(disabled_reason says why); PATCH active to true to resume.") String state,
            @Schema(description = "Why the platform disabled it.") String disabledReason,
            @Schema(description = "The signing secret (Standard Webhooks): shown once, when made or rotated.") String secret,
            @Schema(description = "Until when the previous secret signs too, after a rotation.") Instant previousSecretExpiresAt,
            String deliveriesUrl, Instant createdAt, Instant updatedAt) {
    }

    static Webhook webhook(WebhookSubscription s, PublicUrls urls, String secret) {
        String url = urls.api(new WebhookService.Place(s.namespace, s.repository).path() + "/webhooks/" + s.id);
        Instant previousUntil = s.previousSecretUntil != null && s.previousSecretUntil.isAfter(OffsetDateTime.now())
                ? s.previousSecretUntil.toInstant() : null;
        return new Webhook(s.id, url, s.namespace, s.repository, s.targetUrl, WebhookService.asList(s.kinds), s.description,
                WebhookSubscription.ACTIVE.equals(s.state), s.state, s.disabledReason, secret, previousUntil,
                url + "/deliveries", s.createdAt.toInstant(), s.updatedAt.toInstant());
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @RegisterForReflection
    @Schema(name = "WebhookDelivery")
    public record Delivery(long id, String url,
            @Schema(description = "The webhook-id header of every attempt.") String webhookId,
            @Schema(description = "The data event's id, or the audit event's sequence.") long eventId,
            @Schema(nullable = true) String repository,
            @Schema(description = "The data event's kind, or the audit event's type.") String kind,
            @Schema(enumeration = {"pending", "delivered", "failed"}) String state, int attempts,
            @Schema(description = "The last answer's status.") Integer lastStatus,
            Instant createdAt, @Schema(description = "When it is tried next, while pending.") Instant nextAttemptAt,
            Instant finishedAt,
            @Schema(description = "The attempts: every one for a single delivery, the last one in a list.") List<Attempt> attemptLog) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @RegisterForReflection
    @Schema(name = "WebhookAttempt")
    public record Attempt(Instant attemptedAt, int durationMs,
            @Schema(description = "The receiver's status; absent when it gave none (see error).") Integer status,
            @Schema(description = "Why there was no answer: refused target, timeout, connection.") String error,
            @Schema(description = "The first bytes of the answer.") String answer) {
    }

    @RegisterForReflection
    @Schema(name = "WebhookRedeliveries")
    public record Redeliveries(@Schema(type = SchemaType.INTEGER) int redelivered) {
    }

    static Delivery delivery(WebhookDeliveryRepository.LoggedDelivery d, String webhookUrl) {
        return new Delivery(d.id(), webhookUrl + "/deliveries/" + d.id(), "msg_" + d.id(), d.eventId(), d.repository(), d.kind(),
                d.state(), d.attempts(), d.lastStatus(), d.createdAt().toInstant(),
                d.nextAttemptAt() == null ? null : d.nextAttemptAt().toInstant(),
                d.finishedAt() == null ? null : d.finishedAt().toInstant(),
                d.attemptLog().stream().map(a -> new Attempt(a.attemptedAt().toInstant(), a.durationMs(), a.status(), a.error(),
                        a.answer())).toList());
    }

    /** A webhook as written to create or change one. */
    @Schema(name = "WebhookInput")
    public record WebhookInput(
            @Schema(description = "https (plain http only to a loopback address the operator allowed); no private or "
                    + "reserved address.", maxLength = TargetAddresses.MAX_URL_LENGTH) String url,
            @Schema(description = "The kinds of event to send (FileUpload, API-Request, Fork); all of them when absent.")
            List<String> events,
            @Schema(description = "Whether it sends (default true).") Boolean active,
            @Schema(maxLength = WebhookService.MAX_DESCRIPTION) String description) {
    }

    @Schema(name = "WebhookRedeliveryInput")
    public record RedeliveryInput(@Schema(required = true, format = "date-time") String since) {
    }
}
