package org.ziggurat.vocab.imports;

import com.fasterxml.jackson.databind.JsonNode;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.platform.rest.openapi.ApiContract;
import org.ziggurat.platform.rest.openapi.ApiErrors;

import jakarta.ws.rs.Consumes;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.platform.http.PathIds;
import org.ziggurat.platform.rest.http.PublicUrls;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;
import org.ziggurat.vocab.rdf.Skos;

import java.net.URI;
import java.time.Instant;
import java.util.stream.Collectors;
import org.ziggurat.platform.token.ScopeNames;

/**
 * SKOS imports: the document is accepted as a job (202 and its progress resource), then written
 * into the scheme by {@link ImportWorker}. An import creates concepts and may replace them, so it
 * needs both the {@code write} and the {@code update} scope, and write rights in the namespace.
 */
@Tag(name = "Vocabularies")
@Path("/{namespace}/vocab")
@Produces(MediaType.APPLICATION_JSON)
public class ImportsResource {

    private final Callers callers;
    private final ImportService imports;

    ImportsResource(Callers callers, ImportService imports) {
        this.callers = callers;
        this.imports = imports;
    }

    @RegisterForReflection
    public record SchemeRef(String id, String url) {
    }

    @RegisterForReflection
    @Schema(name = "ImportJob")
    public record Job(long id, String url,
            @Schema(enumeration = {"queued", "running", "succeeded", "failed"}) String state, String format, SchemeRef scheme,
            @Schema(nullable = true, description = "Known once the document is read.") Integer conceptsTotal,
            int conceptsDone, int conceptsCreated, int conceptsReplaced,
            @Schema(type = SchemaType.ARRAY, implementation = JsonNode.class, nullable = true,
                    description = "What made the import fail.") Object errors,
            @Schema(type = SchemaType.ARRAY, implementation = JsonNode.class, nullable = true,
                    description = "What was left out.") Object warnings, Instant createdAt,
            @Schema(implementation = String.class, format = "date-time", nullable = true) Instant startedAt,
            @Schema(implementation = String.class, format = "date-time", nullable = true) Instant finishedAt) {
    }

    @Operation(operationId = "importScheme", summary = "Import SKOS into a scheme",
    description = "A SKOS document (Turtle, RDF/XML, JSON-LD, N-Triples) as the body; its concepts are written by a "
    + "background job, whose progress and report the answer's Location shows.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = {ScopeNames.WRITE, ScopeNames.UPDATE})
    @RequestBody(required = true, content = {
    @Content(mediaType = "text/turtle", schema = @Schema(type = SchemaType.STRING)),
    @Content(mediaType = "application/rdf+xml", schema = @Schema(type = SchemaType.STRING)),
    @Content(mediaType = "application/ld+json", schema = @Schema(type = SchemaType.OBJECT)),
    @Content(mediaType = "application/n-triples", schema = @Schema(type = SchemaType.STRING))})
    @APIResponse(responseCode = "202", description = "Accepted: the job, queued.", headers = @Header(name = "Location",
    description = "The job's URL.", schema = @Schema(type = SchemaType.STRING)), content = @Content(mediaType = "application/json", schema = @Schema(implementation = Job.class)))
    @APIResponse(responseCode = "422", ref = ApiErrors.UNPROCESSABLE)
    @POST
    @Path("/schemes/{slug}/import")
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> create(@PathParam("namespace") String namespace, @PathParam("slug") String slug,
            @Parameter(hidden = true) @HeaderParam("Content-Type") String contentType, byte[] document, @Context UriInfo uri) {
        String format = Skos.format(contentType).map(f -> f.getDefaultMIMEType()).orElseThrow(() -> new ProblemException(415,
                "Unsupported Media Type", "A SKOS document is imported as " + Skos.FORMATS.stream()
                        .map(f -> f.getDefaultMIMEType()).collect(Collectors.joining(", ")) + "."));
        if (document == null || document.length == 0) {
            throw ProblemException.invalidField("document", "is empty");
        }
        PublicUrls urls = PublicUrls.of(uri);
        return callers.current().chain(c -> imports.accept(namespace, slug, c, format, document))
                .map(accepted -> view(accepted, urls))
                .map(job -> Response.accepted(job).location(URI.create(job.url())).build());
    }

    @Operation(operationId = "getImport", summary = "Get an import job",
    description = "Its state (queued, running, succeeded, failed), progress and report. Part of writing: it needs write rights.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.WRITE)
    @APIResponse(responseCode = "200", description = "The job.")
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @GET
    @Path("/imports/{id}")
    public Uni<Job> get(@PathParam("namespace") String namespace, @PathParam("id") String rawId, @Context UriInfo uri) {
        long id = PathIds.parse(rawId, "import");
        PublicUrls urls = PublicUrls.of(uri);
        return callers.current().chain(c -> imports.get(namespace, id, c)).map(found -> view(found, urls));
    }

    static Job view(ImportService.JobOfScheme found, PublicUrls urls) {
        ImportJob job = found.job();
        String namespace = found.scheme().namespace();
        String slug = found.scheme().slug();
        return new Job(job.id(), urls.api("/" + namespace + "/vocab/imports/" + job.id()), job.state(), job.format(),
                new SchemeRef(slug, urls.api("/" + namespace + "/vocab/schemes/" + slug)), job.conceptsTotal(),
                job.conceptsDone(), job.conceptsCreated(), job.conceptsReplaced(), job.errors(), job.warnings(),
                job.createdAt(), job.startedAt(), job.finishedAt());
    }
}
