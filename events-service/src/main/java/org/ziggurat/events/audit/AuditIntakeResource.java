package org.ziggurat.events.audit;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.ziggurat.platform.input.FieldChecks;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;

import java.time.OffsetDateTime;

/**
 * {@code POST /internal/audit-events}: a service tells of a security-relevant change it made,
 * from its outbox (so perhaps more than once: the second time changes nothing). 204.
 */
@Path("/internal/audit-events")
public class AuditIntakeResource {

    private final Callers callers;
    private final AuditService service;

    AuditIntakeResource(Callers callers, AuditService service) {
        this.callers = callers;
        this.service = service;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> record(JsonNode body) {
        FieldChecks.object(body);
        JsonNode id = body.get("source_id");
        if (id == null || !id.canConvertToLong() || id.asLong() < 1) {
            throw ProblemException.invalidField("source_id", "must be a positive number");
        }
        JsonNode actor = body.get("actor_id");
        Long actorId = actor == null || actor.isNull() ? null : actor.asLong();
        JsonNode data = body.get("data");
        if (data == null || !data.isObject()) {
            throw ProblemException.invalidField("data", "must be an object");
        }
        OffsetDateTime time = FieldChecks.timestamp("time", body.path("time").asText(null));
        return callers.current().chain(caller -> service.record(caller, id.asLong(), body.path("type").asText(null),
                        body.path("subject").asText(null), actorId, new JsonObject(data.toString()), time))
                .map(done -> Response.noContent().build());
    }
}
