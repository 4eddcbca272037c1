package org.ziggurat.vocab.schemes;

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
import org.ziggurat.platform.http.PublicUrls;
import org.ziggurat.platform.paging.PageLinks;
import org.ziggurat.platform.paging.PageRequest;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;

import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Variant;
import org.eclipse.rdf4j.rio.RDFFormat;

import java.net.URI;
import java.util.Optional;
import java.util.List;

/** Concept schemes of a namespace (spec 4.6). */
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

    @PATCH
    @Path("/{slug}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<SchemeViews.Scheme> update(@PathParam("namespace") String namespace, @PathParam("slug") String slug,
            JsonNode body, @Context UriInfo uri) {
        SchemeFields f = SchemeFields.parse(body, false);
        return callers.current().chain(c -> schemes.update(namespace, slug, c, f))
                .map(row -> SchemeViews.scheme(row, PublicUrls.of(uri)));
    }

    @DELETE
    @Path("/{slug}")
    public Uni<Response> delete(@PathParam("namespace") String namespace, @PathParam("slug") String slug) {
        return callers.current().chain(c -> schemes.delete(namespace, slug, c))
                .map(v -> Response.noContent().build());
    }
}
