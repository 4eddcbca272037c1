package org.ziggurat.vocab.concepts;

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

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PATCH;
import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.platform.rest.http.PublicUrls;
import org.ziggurat.platform.rest.paging.PageLinks;
import org.ziggurat.platform.paging.PageRequest;
import org.ziggurat.platform.input.FieldChecks;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;
import org.ziggurat.vocab.Etags;
import org.ziggurat.vocab.RenderedPages;
import org.ziggurat.vocab.schemes.SchemeService;

import java.net.URI;
import java.time.OffsetDateTime;
import java.util.List;
import org.ziggurat.platform.token.ScopeNames;

/** Concepts (spec 4.6): of a scheme, or of a whole namespace ({@code in_scheme} narrows it). */
@Tag(name = "Concepts", description = "Concepts of a scheme, with multilingual labels, notes, broader and narrower concepts and matches.")
@Path("/{namespace}/vocab")
@Produces(MediaType.APPLICATION_JSON)
public class ConceptsResource {

    /** The orders of a plain list (a search is ordered by relevance). */
    private static final List<String> SORTS = List.of("updated_at_asc", "updated_at_desc");

    private final Callers callers;
    private final SchemeService schemes;
    private final ConceptService concepts;

    ConceptsResource(Callers callers, SchemeService schemes, ConceptService concepts) {
        this.callers = callers;
        this.schemes = schemes;
        this.concepts = concepts;
    }

    @Operation(operationId = "createConcept", summary = "Create a concept",
    description = "Labels, notes, broader concepts and matches; a Preferred label at least.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.WRITE)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = ConceptDocs.NewConcept.class)))
    @APIResponse(responseCode = "201", description = "The new concept, in the concepts wrapper.", headers = @Header(name = "Location",
    description = "The concept's URL.", schema = @Schema(type = SchemaType.STRING)), content = @Content(mediaType = "application/json", schema = @Schema(implementation = ConceptViews.Concepts.class)))
    @APIResponse(responseCode = "409", ref = ApiErrors.CONFLICT)
    @POST
    @Path("/schemes/{slug}/concepts")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> create(@PathParam("namespace") String namespace, @PathParam("slug") String slug, JsonNode body,
            @Context UriInfo uri) {
        ConceptInput input = ConceptInput.parse(body);
        PublicUrls urls = PublicUrls.of(uri);
        return callers.current().chain(c -> concepts.create(namespace, slug, input, c, urls))
                .map(concept -> Response.created(URI.create(concept.url())).entity(new ConceptViews.Concepts(List.of(concept)))
                        .build());
    }

    /** Changes the fields the body names (collections are replaced whole), checked as a whole concept. */
    @Operation(operationId = "updateConcept", summary = "Change a concept",
    description = "Changes the fields the body names (status, labels, notes, broader, matches; collections are "
    + "replaced whole), checked as a whole concept.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.UPDATE)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = ConceptDocs.NewConcept.class)))
    @APIResponse(responseCode = "200", description = "The changed concept, in the concepts wrapper.")
    @APIResponse(responseCode = "409", ref = ApiErrors.CONFLICT)
    @PATCH
    @Path("/schemes/{slug}/concepts/{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<ConceptViews.Concepts> update(@PathParam("namespace") String namespace, @PathParam("slug") String slug,
            @PathParam("id") String id, JsonNode body, @Context UriInfo uri) {
        requireId(id);
        if (body == null || !body.isObject()) {
            throw ProblemException.badRequest("A JSON object is required.");
        }
        PublicUrls urls = PublicUrls.of(uri);
        return callers.current().chain(c -> concepts.update(namespace, slug, id, body, c, urls))
                .map(concept -> new ConceptViews.Concepts(List.of(concept)));
    }

    @Operation(operationId = "deleteConcept", summary = "Delete a concept")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.UPDATE)
    @APIResponse(responseCode = "204", description = "Deleted.")
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @DELETE
    @Path("/schemes/{slug}/concepts/{id}")
    public Uni<Response> delete(@PathParam("namespace") String namespace, @PathParam("slug") String slug,
            @PathParam("id") String id) {
        requireId(id);
        return callers.current().chain(c -> concepts.delete(namespace, slug, id, c))
                .map(deleted -> Response.noContent().build());
    }

    private static void requireId(String id) {
        if (!ConceptIds.FORM.matcher(id).matches()) {
            throw ConceptService.notFound(id);
        }
    }

    @Operation(operationId = "getConcept", summary = "Get a concept",
    description = "In the concepts wrapper; with synsets=true one flat array of its label strings.")
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @SecurityRequirementsSet
    @Parameter(name = "synsets", description = "true: the concept as one array of its label strings.",
    schema = @Schema(type = SchemaType.BOOLEAN))
    @APIResponse(responseCode = "200", description = "The concept.", headers = @Header(name = "ETag", description = "The version of the page, for If-None-Match.", schema = @Schema(type = SchemaType.STRING)),
    content = @Content(mediaType = "application/json", schema = @Schema(implementation = ConceptSchemas.OneConcept.class)))
    @APIResponse(responseCode = "304", description = "Not modified since the ETag sent in If-None-Match.", headers = @Header(name = "ETag", description = "The version of the page, for If-None-Match.", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @GET
    @Path("/schemes/{slug}/concepts/{id}")
    public Uni<Response> one(@PathParam("namespace") String namespace, @PathParam("slug") String slug,
            @PathParam("id") String id, @QueryParam("synsets") String synsets,
            @HeaderParam("If-None-Match") String ifNoneMatch, @Context UriInfo uri) {
        boolean asSynset = flag(synsets);
        requireId(id);
        PublicUrls urls = PublicUrls.of(uri);
        return schemes.visible(namespace, slug).chain(scheme -> concepts.one(scheme, id, asSynset, urls, uri))
                .map(page -> Etags.respond(page.rendered(), ifNoneMatch, Response.ok()).build());
    }

    @Operation(operationId = "listSchemeConcepts", summary = "List a scheme's concepts",
    description = "Newest update first by default, a page at a time (Link header); or a search with q.")
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @SecurityRequirementsSet
    @Parameter(name = "since", description = "Only what was updated strictly after this instant (ISO 8601).",
    schema = @Schema(type = SchemaType.STRING, format = "date-time"))
    @Parameter(name = "sort", schema = @Schema(enumeration = {"updated_at_asc", "updated_at_desc"}))
    @Parameter(name = "synsets", description = "true: each concept as one array of its label strings.",
    schema = @Schema(type = SchemaType.BOOLEAN))
    @Parameter(name = "q", description = "Search the labels; ordered by relevance (no sort).", schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "lang", description = "With q: search labels of this language only.", schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "A page of concepts.", headers = @Header(name = "ETag", description = "The version of the page, for If-None-Match.", schema = @Schema(type = SchemaType.STRING)), content = @Content(mediaType = "application/json", schema = @Schema(implementation = ConceptSchemas.ConceptList.class)))
    @APIResponse(responseCode = "304", description = "Not modified since the ETag sent in If-None-Match.", headers = @Header(name = "ETag", description = "The version of the page, for If-None-Match.", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @GET
    @Path("/schemes/{slug}/concepts")
    public Uni<Response> ofScheme(@PathParam("namespace") String namespace, @PathParam("slug") String slug,
            @QueryParam("since") String since, @QueryParam("sort") String sort, @QueryParam("page") String page,
            @QueryParam("per_page") String perPage, @QueryParam("synsets") String synsets, @QueryParam("q") String q,
            @QueryParam("lang") String lang, @HeaderParam("If-None-Match") String ifNoneMatch,
            @Context UriInfo uri) {
        ConceptService.ListQuery query = query(since, sort, page, perPage, synsets, searchText(q, uri), lang);
        return respond(schemes.visible(namespace, slug)
                .chain(scheme -> concepts.ofScheme(scheme, query, PublicUrls.of(uri), uri)), query, ifNoneMatch, uri);
    }

    @Operation(operationId = "listNamespaceConcepts", summary = "List a namespace's concepts",
    description = "Concepts of every scheme of the namespace, or of one (in_scheme), a page at a time (Link header).")
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @SecurityRequirementsSet
    @Parameter(name = "in_scheme", description = "A scheme's slug.", schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "since", description = "Only what was updated strictly after this instant (ISO 8601).",
    schema = @Schema(type = SchemaType.STRING, format = "date-time"))
    @Parameter(name = "sort", schema = @Schema(enumeration = {"updated_at_asc", "updated_at_desc"}))
    @Parameter(name = "synsets", description = "true: each concept as one array of its label strings.",
    schema = @Schema(type = SchemaType.BOOLEAN))
    @Parameter(name = "q", description = "Search the labels; ordered by relevance (no sort).", schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "lang", description = "With q: search labels of this language only.", schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "A page of concepts.", headers = @Header(name = "ETag", description = "The version of the page, for If-None-Match.", schema = @Schema(type = SchemaType.STRING)), content = @Content(mediaType = "application/json", schema = @Schema(implementation = ConceptSchemas.ConceptList.class)))
    @APIResponse(responseCode = "304", description = "Not modified since the ETag sent in If-None-Match.", headers = @Header(name = "ETag", description = "The version of the page, for If-None-Match.", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @GET
    @Path("/concepts")
    public Uni<Response> ofNamespace(@PathParam("namespace") String namespace, @QueryParam("in_scheme") String inScheme,
            @QueryParam("since") String since, @QueryParam("sort") String sort, @QueryParam("page") String page,
            @QueryParam("per_page") String perPage, @QueryParam("synsets") String synsets, @QueryParam("q") String q,
            @QueryParam("lang") String lang, @HeaderParam("If-None-Match") String ifNoneMatch,
            @Context UriInfo uri) {
        ConceptService.ListQuery query = query(since, sort, page, perPage, synsets, searchText(q, uri), lang);
        PublicUrls urls = PublicUrls.of(uri);
        Uni<RenderedPages.Page> found = inScheme != null
                ? schemes.visible(namespace, inScheme).chain(scheme -> concepts.ofScheme(scheme, query, urls, uri))
                : callers.current().chain(c -> concepts.ofNamespace(namespace, c, query, urls, uri));
        return respond(found, query, ifNoneMatch, uri);
    }

    /** A page as sent: its ETag, and its Link header. */
    private static Uni<Response> respond(Uni<RenderedPages.Page> found, ConceptService.ListQuery q, String ifNoneMatch,
            UriInfo uri) {
        return found.map(page -> Etags.respond(page.rendered(), ifNoneMatch,
                PageLinks.withoutTotal(Response.ok(), uri, q.page(), page.more())).build());
    }

    static ConceptService.ListQuery query(String since, String sort, String page, String perPage, String synsets,
            String q, String lang) {
        PageRequest request = PageRequest.of(page, perPage);
        OffsetDateTime after = FieldChecks.timestamp("since", since);
        FieldChecks.oneOf("sort", sort, SORTS);
        if (q != null && sort != null) {
            throw FieldChecks.parameter("sort", "A search (q) is ordered by relevance; it takes no sort.", "not with q");
        }
        if (q == null && lang != null) {
            throw FieldChecks.parameter("lang", "lang narrows a search: give q as well.", "only with q");
        }
        return new ConceptService.ListQuery(after, "updated_at_desc".equals(sort), request, flag(synsets),
                ConceptSearch.parse(q, lang));
    }

    /** An empty {@code q=} arrives as null; it is a search for nothing, refused, not a plain list. */
    private static String searchText(String q, UriInfo uri) {
        return q == null && uri.getQueryParameters().containsKey("q") ? "" : q;
    }

    private static boolean flag(String value) {
        return FieldChecks.flag("synsets", value);
    }
}
