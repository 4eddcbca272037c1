package org.ziggurat.events.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.platform.input.FieldChecks;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.rest.openapi.ApiContract;
import org.ziggurat.platform.rest.openapi.ApiErrors;
import org.ziggurat.platform.token.Callers;
import org.ziggurat.platform.token.ScopeNames;

import java.time.OffsetDateTime;
import java.util.List;

/** The platform's audit stream, for its operators: security-relevant changes as CloudEvents, oldest first. */
@Tag(name = "Audit stream", description = "Security-relevant changes of the whole platform, for its operators.")
@Path("/audit/events")
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {

    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1000;

    private final Callers callers;
    private final AuditService service;
    private final ObjectMapper mapper;

    AuditResource(Callers callers, AuditService service, ObjectMapper mapper) {
        this.callers = callers;
        this.service = service;
        this.mapper = mapper;
    }

    @Operation(operationId = "listAuditEvents", summary = "Read the audit stream",
            description = "For the platform's operators, with their own token (issued without a client) and the admin scope. "
                    + "Oldest first; each page's Link rel=next starts after "
                    + "its last event's sequence, so a reader that keeps it misses none and sees none twice.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @Parameter(name = "after", description = "Only events after this sequence.", schema = @Schema(type = SchemaType.INTEGER, minimum = "0"))
    @Parameter(name = "category", schema = @Schema(enumeration = {"account", "membership", "application", "authorization", "webhook",
            "identity_provider", "resource_server"}))
    @Parameter(name = "since", description = "Only events recorded at or after this instant (ISO 8601).",
            schema = @Schema(type = SchemaType.STRING, format = "date-time"))
    @Parameter(name = "limit", schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "1000", defaultValue = "100"))
    @APIResponse(responseCode = "200", description = "Events, oldest first.",
            headers = @Header(name = "Link", description = "rel=next: the page after this one.", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = "application/json", schema = @Schema(type = SchemaType.ARRAY, implementation = AuditViews.Event.class)))
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @GET
    public Uni<Response> list(@QueryParam("after") String after, @QueryParam("category") String category,
            @QueryParam("since") String since, @QueryParam("limit") String limit, @Context UriInfo uri) {
        long afterId = number("after", after, 0, Long.MAX_VALUE, 0);
        int most = (int) number("limit", limit, 1, MAX_LIMIT, DEFAULT_LIMIT);
        FieldChecks.oneOf("category", category, AuditService.CATEGORIES);
        OffsetDateTime from = FieldChecks.timestamp("since", since);
        return callers.current().chain(caller -> service.read(caller, afterId, category, from, most)).map(rows -> {
            List<AuditViews.Event> events = rows.stream().map(r -> AuditViews.event(r, mapper)).toList();
            Response.ResponseBuilder answer = Response.ok(events);
            if (events.size() == most) {
                answer.header("Link", "<" + uri.getRequestUriBuilder().replaceQueryParam("after", events.get(most - 1).sequence())
                        .build() + ">; rel=\"next\"");
            }
            return answer.build();
        });
    }

    private static long number(String name, String value, long min, long max, long fallback) {
        if (value == null) {
            return fallback;
        }
        try {
            long n = Long.parseLong(value);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw ProblemException.badRequest(name + " must be a number from " + min + " to " + max + ".");
    }
}
