package org.ziggurat.events.data;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirementsSet;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.platform.rest.openapi.ApiContract;
import org.ziggurat.platform.rest.openapi.ApiErrors;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;

import org.ziggurat.platform.input.FieldChecks;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.events.EventsConfig;
import org.ziggurat.platform.rest.http.PublicUrls;
import org.ziggurat.platform.rest.paging.PageLinks;
import org.ziggurat.platform.paging.PageRequest;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.regex.Pattern;
import org.ziggurat.platform.token.ScopeNames;

/** Data events of a repository (spec 4.7); following them as they come is the streams package's. */
@Tag(name = "Data events", description = "Records of data manipulation in a repository: FileUpload, API-Request, Fork.")
@Path("/{namespace}/repositories/{repository}/data/events")
@Produces(MediaType.APPLICATION_JSON)
public class EventsResource {

    private static final Pattern IDEMPOTENCY_KEY = Pattern.compile("[\\x21-\\x7e]{1,255}");

    private final Callers callers;
    private final EventService service;
    private final EventsConfig config;
    private final ObjectMapper mapper;

    EventsResource(Callers callers, EventService service, EventsConfig config, ObjectMapper mapper) {
        this.callers = callers;
        this.service = service;
        this.config = config;
        this.mapper = mapper;
    }

    @Operation(operationId = "createDataEvent", summary = "Record a data event",
    description = "By a person who may write the namespace. Each commit names an item; the server keeps its revisions "
    + "and the JSON Patch changeset against the previous one. With Idempotency-Key, the same key and body "
    + "answer the first event again; the same key with another body is 422.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.WRITE)
    @Parameter(name = "Idempotency-Key", in = ParameterIn.HEADER, description = "1 to 255 visible ASCII characters.",
    schema = @Schema(type = SchemaType.STRING, maxLength = 255))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = EventDocs.EventInput.class)))
    @APIResponse(responseCode = "201", description = "The recorded event (or, for a replayed key, the first one).",
    headers = @Header(name = "Location", description = "The event's URL.", schema = @Schema(type = SchemaType.STRING)),
    content = @Content(mediaType = "application/json", schema = @Schema(implementation = EventViews.Event.class)))
    @APIResponse(responseCode = "409", ref = ApiErrors.CONFLICT)
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> create(@PathParam("namespace") String namespace, @PathParam("repository") String repository,
            @HeaderParam("Idempotency-Key") String idempotencyKey, String body, @Context UriInfo uri) {
        String repo = RepositoryNames.checked(repository);
        if (body == null || body.isEmpty()) {
            throw ProblemException.badRequest("A JSON body is required.");
        }
        // The characters first: a body far too large is refused before it is encoded.
        byte[] bytes = body.length() > config.maxBodyBytes() ? null : body.getBytes(StandardCharsets.UTF_8);
        if (bytes == null || bytes.length > config.maxBodyBytes()) {
            throw ProblemException.tooLarge("A data event may be at most " + config.maxBodyBytes() + " bytes.");
        }
        if (idempotencyKey != null && !IDEMPOTENCY_KEY.matcher(idempotencyKey).matches()) {
            throw ProblemException.invalidField("Idempotency-Key", "must be 1 to 255 visible ASCII characters");
        }
        JsonNode json;
        try {
            json = mapper.readTree(body);
        } catch (JsonProcessingException e) {
            throw ProblemException.badRequest("The request body is not valid JSON.");
        }
        EventService.Append append = new EventService.Append(namespace, repo, EventInput.parse(json, config),
                idempotencyKey, idempotencyKey == null ? null : IdempotentReplays.hash(bytes));
        return callers.current().chain(caller -> service.append(append, caller, PublicUrls.of(uri)))
                .map(view -> Response.created(URI.create(view.url())).entity(view).build());
    }

    /** Newest first, {@code kind} and {@code since} filters, {@code page}/{@code per_page} with Link headers. */
    @Operation(operationId = "listDataEvents", summary = "List a repository's data events",
    description = "Newest first, a page at a time (Link header). A namespace that is not public needs membership.")
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @SecurityRequirementsSet
    @Parameter(name = "kind", schema = @Schema(enumeration = {"FileUpload", "API-Request", "Fork"}))
    @Parameter(name = "since", description = "Only events after this instant (ISO 8601).", schema = @Schema(type = SchemaType.STRING, format = "date-time"))
    @APIResponse(responseCode = "200", description = "A page of events, without their commits.", content = @Content(
    mediaType = "application/json", schema = @Schema(type = SchemaType.ARRAY, implementation = EventViews.Event.class)))
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @GET
    public Uni<Response> list(@PathParam("namespace") String namespace, @PathParam("repository") String repository,
            @QueryParam("kind") String kind, @QueryParam("since") String since, @QueryParam("page") String page,
            @QueryParam("per_page") String perPage, @Context UriInfo uri) {
        String repo = RepositoryNames.checked(repository);
        PageRequest request = PageRequest.of(page, perPage);
        FieldChecks.oneOf("kind", kind, EventInput.KINDS);
        OffsetDateTime after = FieldChecks.timestamp("since", since);
        return callers.current().chain(caller -> service.readable(namespace, caller))
                .chain(ns -> service.page(ns, repo, kind, after, request.limit(), request.offset(), PublicUrls.of(uri)))
                .map(found -> PageLinks.withoutTotal(Response.ok(found.events()), uri, request, found.more()).build());
    }

    @Operation(operationId = "getDataEvent", summary = "Get a data event", description = "With its commits.")
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "The event.")
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @GET
    @Path("/{id:[0-9]+}")
    public Uni<EventViews.Event> get(@PathParam("namespace") String namespace, @PathParam("repository") String repository,
            @PathParam("id") String id, @Context UriInfo uri) {
        String repo = RepositoryNames.checked(repository);
        long eventId = eventId(id);
        return callers.current().chain(caller -> service.readable(namespace, caller))
                .chain(ns -> service.single(new EventViews.Place(ns.name(), repo, PublicUrls.of(uri)), eventId));
    }

    @Operation(operationId = "listDataEventCommits", summary = "List a data event's commits",
    description = "Each with the item's revision, its payload and the changeset (RFC 6902) against the previous revision.")
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "The commits.")
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @GET
    @Path("/{id:[0-9]+}/commits")
    public Uni<List<EventViews.Commit>> commits(@PathParam("namespace") String namespace,
            @PathParam("repository") String repository, @PathParam("id") String id) {
        String repo = RepositoryNames.checked(repository);
        long eventId = eventId(id);
        return callers.current().chain(caller -> service.readable(namespace, caller))
                .chain(ns -> service.commits(ns.name(), repo, eventId));
    }

    private static long eventId(String id) {
        if (id.length() > 18) {
            throw ProblemException.notFound("No such data event.");
        }
        return Long.parseLong(id);
    }

}
