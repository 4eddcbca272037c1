package org.ziggurat.vocab.concepts;

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
import org.ziggurat.platform.http.PublicUrls;
import org.ziggurat.platform.paging.PageLinks;
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

/** Concepts (spec 4.6): of a scheme, or of a whole namespace ({@code in_scheme} narrows it). */
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
