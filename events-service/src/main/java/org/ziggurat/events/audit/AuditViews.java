package org.ziggurat.events.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudevents.CloudEvent;
import io.cloudevents.core.builder.CloudEventBuilder;
import io.quarkus.runtime.annotations.RegisterForReflection;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * An audit event as a CloudEvent: {@code source} {@code urn:ziggurat:} and the service that made
 * the change, {@code id} that service's id for it, {@code type} {@code org.ziggurat.audit.} and the
 * change (such as {@code membership.added}), {@code subject} what changed, {@code data} what the
 * service said of it and who did it ({@code actor_id}).
 */
public final class AuditViews {

    public static final String TYPE_PREFIX = "org.ziggurat.audit.";

    private AuditViews() {
    }

    /** The same event as the API lists it: a CloudEvent in structured JSON. */
    @RegisterForReflection
    @Schema(name = "AuditEvent", description = "A CloudEvents 1.0 event (structured JSON).")
    public record Event(String specversion, String id, String source, String type, String subject, Instant time,
            String datacontenttype, @Schema(description = "What changed, and actor_id: who changed it.") JsonNode data,
            @Schema(description = "Its position in the stream: the next page starts after it.") long sequence) {
    }

    public static Event event(AuditRepository.AuditRow row, ObjectMapper mapper) {
        try {
            return new Event("1.0", String.valueOf(row.sourceId()), source(row), TYPE_PREFIX + row.type(), row.subject(),
                    row.occurredAt().toInstant(), "application/json", mapper.readTree(data(row)), row.id());
        } catch (java.io.IOException e) {
            throw new IllegalStateException("an audit event's data is not JSON", e);
        }
    }

    public static CloudEvent cloudEvent(AuditRepository.AuditRow row) {
        return CloudEventBuilder.v1().withId(String.valueOf(row.sourceId())).withSource(URI.create(source(row)))
                .withType(TYPE_PREFIX + row.type()).withSubject(row.subject()).withTime(row.occurredAt())
                .withData("application/json", data(row).getBytes(StandardCharsets.UTF_8)).build();
    }

    private static String source(AuditRepository.AuditRow row) {
        return "urn:ziggurat:" + row.source();
    }

    /** The service's data with who made the change. */
    private static String data(AuditRepository.AuditRow row) {
        io.vertx.core.json.JsonObject data = new io.vertx.core.json.JsonObject(row.data());
        data.put("actor_id", row.actorId());
        return data.encode();
    }
}
