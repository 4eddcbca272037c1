package org.ziggurat.vocab.imports;

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
import org.ziggurat.platform.http.PublicUrls;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;
import org.ziggurat.vocab.rdf.Skos;

import java.net.URI;
import java.time.Instant;
import java.util.stream.Collectors;

/**
 * SKOS imports: the document is accepted as a job (202 and its progress resource), then written
 * into the scheme by {@link ImportWorker}. An import creates concepts and may replace them, so it
 * needs both the {@code write} and the {@code update} scope, and write rights in the namespace.
 */
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
    public record Job(long id, String url, String state, String format, SchemeRef scheme, Integer conceptsTotal,
            int conceptsDone, int conceptsCreated, int conceptsReplaced, Object errors, Object warnings, Instant createdAt,
            Instant startedAt, Instant finishedAt) {
    }

    @POST
    @Path("/schemes/{slug}/import")
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> create(@PathParam("namespace") String namespace, @PathParam("slug") String slug,
            @HeaderParam("Content-Type") String contentType, byte[] document, @Context UriInfo uri) {
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
