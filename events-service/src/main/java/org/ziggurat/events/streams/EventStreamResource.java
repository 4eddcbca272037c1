package org.ziggurat.events.streams;

import io.smallrye.mutiny.Multi;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirementsSet;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.directory.client.Namespace;
import org.ziggurat.events.data.RepositoryNames;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.rest.http.PublicUrls;
import org.ziggurat.platform.rest.openapi.ApiContract;
import org.ziggurat.platform.rest.openapi.ApiErrors;
import org.ziggurat.platform.token.Caller;

/** A repository's data events as they are written (spec 4.7, server-sent events). */
@Tag(name = "Data events")
@Path("/{namespace}/repositories/{repository}/data/events/stream")
public class EventStreamResource {

    private final EventStreams streams;

    EventStreamResource(EventStreams streams) {
        this.streams = streams;
    }

    /**
     * Server-sent events of new data events as they are written, from any replica. With
     * {@code Last-Event-ID} (or {@code ?after=}) the stream first sends what came after that id.
     */
    @Operation(operationId = "streamDataEvents", summary = "Follow a repository's data events",
    description = "Server-sent events: each new event as it is written, from any replica, as one line of JSON (id: "
    + "the event's id). With Last-Event-ID or ?after= the stream first sends what came after that id.")
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @SecurityRequirementsSet
    @Parameter(name = "Last-Event-ID", in = ParameterIn.HEADER, schema = @Schema(type = SchemaType.STRING, pattern = "^[0-9]{1,18}$"))
    @Parameter(name = "after", description = "An event id: start after it.", schema = @Schema(type = SchemaType.STRING, pattern = "^[0-9]{1,18}$"))
    @APIResponse(responseCode = "200", description = "The stream.", content = @Content(mediaType = "text/event-stream",
    schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @GET
    @StreamReaders
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public Multi<OutboundSseEvent> stream(@PathParam("namespace") String namespace,
            @PathParam("repository") String repository, @HeaderParam("Last-Event-ID") String lastEventId,
            @QueryParam("after") String afterParam, @Context UriInfo uri, @Context Sse sse,
            @Context ContainerRequestContext request) {
        String repo = RepositoryNames.checked(repository);
        String resumeFrom = lastEventId != null ? lastEventId : afterParam;
        if (resumeFrom != null && !resumeFrom.matches("[0-9]{1,18}")) {
            throw ProblemException.badRequest("Last-Event-ID must be an event id.");
        }
        PublicUrls urls = PublicUrls.of(uri);
        // Rights were settled by StreamRights before this method, while a refusal could still be a 404.
        Namespace ns = (Namespace) request.getProperty(StreamRights.NAMESPACE);
        Caller caller = (Caller) request.getProperty(StreamRights.CALLER);
        return streams.open(ns, repo, resumeFrom == null ? null : Long.parseLong(resumeFrom), caller, urls, sse);
    }
}
