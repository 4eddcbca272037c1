package org.ziggurat.vocab.schemes;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirementsSet;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.platform.rest.openapi.ApiContract;
import org.ziggurat.platform.rest.openapi.ApiErrors;

import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.http.HttpServerResponse;
import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
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
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;

import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Variant;
import org.eclipse.rdf4j.rio.RDFFormat;

import java.net.URI;
import java.util.Optional;
import java.util.List;
import org.ziggurat.platform.token.ScopeNames;

/** Concept schemes of a namespace (spec 4.6). */
@Tag(name = "Vocabularies", description = "Concept schemes per namespace (a person or an organization), their SKOS exports and imports.")
@Path("/{namespace}/vocab/schemes")
@Produces(MediaType.APPLICATION_JSON)
public class SchemesResource {

    private final Callers callers;
    private final SchemeService schemes;
    private final SchemeExport exporter;

    SchemesResource(Callers callers, SchemeService schemes, SchemeExport exporter) {
        this.callers = callers;
        this.schemes = schemes;
        this.exporter = exporter;
    }

    @Operation(operationId = "listSchemes", summary = "List a namespace's schemes",
    description = "A page at a time, with Link headers. A private organization's schemes are visible to its members only.")
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "A page of schemes.", content = @Content(mediaType = "application/json",
    schema = @Schema(type = SchemaType.ARRAY, implementation = SchemeViews.Scheme.class)))
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @GET
    public Uni<Response> list(@PathParam("namespace") String namespace, @QueryParam("page") String page,
            @QueryParam("per_page") String perPage, @Context UriInfo uri) {
        PageRequest request = PageRequest.of(page, perPage);
        PublicUrls urls = PublicUrls.of(uri);
        return callers.current().chain(c -> schemes.page(namespace, c, request.limitPlusOne(), request.offset()))
                .map(rows -> PageLinks.withoutTotal(Response.ok(rows.stream().limit(request.limit())
                        .map(r -> SchemeViews.scheme(r, urls)).toList()), uri, request, rows.size() > request.limit()).build());
    }

    /**
     * The scheme as JSON, or with all its concepts as SKOS (Turtle, RDF/XML, JSON-LD) when the
     * Accept header asks. Rights are settled on the event loop. An export is written, as its
     * concepts are read, to a temporary file on a worker thread (never whole in memory), then
     * sent from that file without blocking and deleted once the answer has gone or the client has.
     */
    @Operation(operationId = "getScheme", summary = "Get a scheme, or export it as SKOS",
    description = "JSON by default; with Accept text/turtle, application/rdf+xml or application/ld+json the whole "
    + "scheme with its concepts as SKOS.")
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "The scheme.", content = {@Content(mediaType = "application/json", schema = @Schema(implementation = SchemeViews.Scheme.class)),
    @Content(mediaType = "text/turtle", schema = @Schema(type = SchemaType.STRING)),
    @Content(mediaType = "application/rdf+xml", schema = @Schema(type = SchemaType.STRING)),
    @Content(mediaType = "application/ld+json", schema = @Schema(type = SchemaType.OBJECT))})
    @APIResponse(responseCode = "406", description = "None of the accepted media types is served.",
    content = @Content(mediaType = "application/problem+json", schema = @Schema(ref = ApiErrors.PROBLEM_SCHEMA)))
    @GET
    @Path("/{slug}")
    @Produces({MediaType.APPLICATION_JSON, "text/turtle", "application/rdf+xml", "application/ld+json"})
    public Uni<Response> get(@PathParam("namespace") String namespace, @PathParam("slug") String slug,
            @Context UriInfo uri, @Context Request request, @Context HttpServerResponse response) {
        Variant chosen = request.selectVariant(VARIANTS);
        if (chosen == null) {
            throw new ProblemException(406, "Not Acceptable", "A scheme is served as application/json, text/turtle, "
                    + "application/rdf+xml or application/ld+json.");
        }
        PublicUrls urls = PublicUrls.of(uri);
        Optional<RDFFormat> rdf = exporter.format(chosen.getMediaType().toString());
        Uni<SchemeRow> visible = schemes.visible(namespace, slug);
        if (rdf.isEmpty()) {
            return visible.map(row -> Response.ok(SchemeViews.scheme(row, urls), MediaType.APPLICATION_JSON_TYPE).build());
        }
        return visible.emitOn(Infrastructure.getDefaultWorkerPool()).map(row -> {
            java.nio.file.Path file = exporter.writeToTemporaryFile(row, rdf.get(), urls);
            Runnable delete = () -> exporter.delete(file);
            response.endHandler(v -> delete.run());
            response.closeHandler(v -> delete.run());
            return Response.ok(file.toFile(), rdf.get().getDefaultMIMEType() + ";charset=UTF-8")
                    .header("Content-Disposition", "inline; filename=\"" + row.slug() + "."
                            + rdf.get().getDefaultFileExtension() + "\"")
                    .header("Vary", "Accept").build();
        });
    }

    private static final List<Variant> VARIANTS = Variant.mediaTypes(MediaType.APPLICATION_JSON_TYPE,
            MediaType.valueOf("text/turtle"), MediaType.valueOf("application/rdf+xml"),
            MediaType.valueOf("application/ld+json")).build();

    @Operation(operationId = "createScheme", summary = "Create a scheme",
    description = "In a namespace the caller may write: their own, or an organization in which they are an active member.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.WRITE)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = SchemeInput.class)))
    @APIResponse(responseCode = "201", description = "The new scheme.", headers = @Header(name = "Location",
    description = "The scheme's URL.", schema = @Schema(type = SchemaType.STRING)), content = @Content(mediaType = "application/json", schema = @Schema(implementation = SchemeViews.Scheme.class)))
    @APIResponse(responseCode = "409", ref = ApiErrors.CONFLICT)
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> create(@PathParam("namespace") String namespace, JsonNode body, @Context UriInfo uri) {
        SchemeFields f = SchemeFields.parse(body, true);
        PublicUrls urls = PublicUrls.of(uri);
        return callers.current().chain(c -> schemes.create(namespace, c, f))
                .map(row -> {
                    SchemeViews.Scheme view = SchemeViews.scheme(row, urls);
                    return Response.created(URI.create(view.url())).entity(view).build();
                });
    }

    @Operation(operationId = "updateScheme", summary = "Change a scheme",
    description = "Changes the fields the body names; the slug cannot change.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.UPDATE)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = SchemeInput.class)))
    @APIResponse(responseCode = "200", description = "The changed scheme.")
    @PATCH
    @Path("/{slug}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<SchemeViews.Scheme> update(@PathParam("namespace") String namespace, @PathParam("slug") String slug,
            JsonNode body, @Context UriInfo uri) {
        SchemeFields f = SchemeFields.parse(body, false);
        return callers.current().chain(c -> schemes.update(namespace, slug, c, f))
                .map(row -> SchemeViews.scheme(row, PublicUrls.of(uri)));
    }

    @Operation(operationId = "deleteScheme", summary = "Delete a scheme", description = "With its concepts and import jobs.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.UPDATE)
    @APIResponse(responseCode = "204", description = "Deleted.")
    @DELETE
    @Path("/{slug}")
    public Uni<Response> delete(@PathParam("namespace") String namespace, @PathParam("slug") String slug) {
        return callers.current().chain(c -> schemes.delete(namespace, slug, c))
                .map(v -> Response.noContent().build());
    }

    /** The body of POST and PATCH, for the API's description (SchemeFields checks it). */
    @Schema(name = "SchemeInput")
    record SchemeInput(
            @Schema(maxLength = 64, pattern = "^[a-z0-9][a-z0-9-]{0,63}$", description = "Required on create; cannot change.")
            String slug,
            @Schema(maxLength = 32) String abbr,
            @Schema(maxLength = 500, description = "Required on create.") String title,
            @Schema(maxLength = 20000, nullable = true) String definition,
            @Schema(nullable = true, description = "The language of default labels: en, eng or 'eng (en) - English'.")
            String defaultLanguage) {
    }
}
