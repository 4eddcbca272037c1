package org.ziggurat.vocab.concepts;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PATCH;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
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
import org.ziggurat.platform.namespaces.NamespaceRights;
import org.ziggurat.platform.paging.PageLinks;
import org.ziggurat.platform.paging.PageRequest;
import org.ziggurat.platform.problem.Problem;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.time.Timestamps;
import org.ziggurat.platform.token.Callers;
import org.ziggurat.vocab.schemes.SchemeRepository;
import org.ziggurat.vocab.schemes.SchemeRow;
import org.ziggurat.vocab.Etags;
import org.ziggurat.vocab.RenderedPages;
import org.ziggurat.vocab.schemes.SchemeAccess;

import java.net.URI;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Concepts (spec 4.6): of a scheme, or of a whole namespace ({@code in_scheme} narrows it). */
@Path("/{namespace}/vocab")
@Produces(MediaType.APPLICATION_JSON)
public class ConceptsResource {

    @Inject
    Callers callers;

    @Inject
    NamespaceRights rights;

    @Inject
    SchemeRepository schemes;

    @Inject
    SchemeAccess schemeAccess;

    @Inject
    ConceptRepository concepts;

    @Inject
    RenderedPages pages;

    @Inject
    ObjectMapper mapper;

    record ListQuery(OffsetDateTime since, boolean descending, PageRequest page, boolean synsets, String ifNoneMatch,
            ConceptSearch search) {
    }

    @POST
    @Path("/schemes/{slug}/concepts")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> create(@PathParam("namespace") String namespace, @PathParam("slug") String slug, JsonNode body,
            @Context UriInfo uri) {
        ConceptInput input = ConceptInput.parse(body);
        PublicUrls urls = PublicUrls.of(uri);
        return callers.current().chain(c -> rights.forWriting(namespace, c, "write")
                .chain(ns -> schemes.bySlug(ns.name(), slug))
                .onItem().ifNull().failWith(() -> SchemeAccess.notFound(slug))
                .chain(scheme -> concepts.insert(scheme.id(), input, c.requireUser(), c.username().orElse(""))
                        .chain(id -> render(scheme, id, urls))))
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
        return callers.current().chain(c -> rights.forWriting(namespace, c, "update")
                .chain(ns -> schemes.bySlug(ns.name(), slug))
                .onItem().ifNull().failWith(() -> SchemeAccess.notFound(slug))
                .chain(scheme -> concepts.one(scheme.id(), id)
                        .onItem().ifNull().failWith(() -> ProblemException.notFound("No concept has the id '" + id + "'."))
                        .chain(row -> concepts.details(List.of(id)).map(d -> {
                            var merged = ConceptInput.asBody(row.status(), d.labels().getOrDefault(id, List.of()),
                                    d.notes().getOrDefault(id, List.of()), d.broader().getOrDefault(id, List.of()),
                                    d.matches().getOrDefault(id, List.of()), mapper);
                            body.fields().forEachRemaining(f -> {
                                if (List.of("status", "labels", "notes", "broader", "matches").contains(f.getKey())) {
                                    merged.set(f.getKey(), f.getValue());
                                }
                            });
                            return ConceptInput.parse(merged);
                        }))
                        .chain(input -> concepts.replace(scheme.id(), id, input, c.username().orElse("")))
                        .chain(() -> render(scheme, id, urls))))
                .map(concept -> new ConceptViews.Concepts(List.of(concept)));
    }

    @DELETE
    @Path("/schemes/{slug}/concepts/{id}")
    public Uni<Response> delete(@PathParam("namespace") String namespace, @PathParam("slug") String slug,
            @PathParam("id") String id) {
        requireId(id);
        return callers.current().chain(c -> rights.forWriting(namespace, c, "update"))
                .chain(ns -> schemes.bySlug(ns.name(), slug))
                .onItem().ifNull().failWith(() -> SchemeAccess.notFound(slug))
                .chain(scheme -> concepts.delete(scheme.id(), id))
                .map(deleted -> {
                    if (!deleted) {
                        throw ProblemException.notFound("No concept has the id '" + id + "'.");
                    }
                    return Response.noContent().build();
                });
    }

    private static void requireId(String id) {
        if (!ConceptIds.FORM.matcher(id).matches()) {
            throw ProblemException.notFound("No concept has the id '" + id + "'.");
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
        return schemeAccess.visible(namespace, slug)
                .chain(scheme -> pages.get(RenderedPages.ofScheme(scheme.id(), scheme.revision()), urls, uri, () -> concepts
                        .one(scheme.id(), id)
                        .onItem().ifNull().failWith(() -> ProblemException.notFound("No concept has the id '" + id + "'."))
                        .chain(row -> concepts.details(List.of(row.id())).map(d -> new RenderedPages.Page(Etags.render(mapper,
                                asSynset ? ConceptViews.synset(row.id(), d)
                                        : new ConceptViews.Concepts(List.of(ConceptViews.concept(row, scheme, d, urls)))),
                                false)))))
                .map(page -> Etags.respond(page.rendered(), ifNoneMatch, Response.ok()).build());
    }

    @GET
    @Path("/schemes/{slug}/concepts")
    public Uni<Response> ofScheme(@PathParam("namespace") String namespace, @PathParam("slug") String slug,
            @QueryParam("since") String since, @QueryParam("sort") String sort, @QueryParam("page") String page,
            @QueryParam("per_page") String perPage, @QueryParam("synsets") String synsets, @QueryParam("q") String q,
            @QueryParam("lang") String lang, @HeaderParam("If-None-Match") String ifNoneMatch,
            @Context UriInfo uri) {
        ListQuery query = query(since, sort, page, perPage, synsets, ifNoneMatch, searchText(q, uri), lang);
        return schemeAccess.visible(namespace, slug).chain(scheme -> list(scheme.namespace(), scheme, query, uri));
    }

    @GET
    @Path("/concepts")
    public Uni<Response> ofNamespace(@PathParam("namespace") String namespace, @QueryParam("in_scheme") String inScheme,
            @QueryParam("since") String since, @QueryParam("sort") String sort, @QueryParam("page") String page,
            @QueryParam("per_page") String perPage, @QueryParam("synsets") String synsets, @QueryParam("q") String q,
            @QueryParam("lang") String lang, @HeaderParam("If-None-Match") String ifNoneMatch,
            @Context UriInfo uri) {
        ListQuery query = query(since, sort, page, perPage, synsets, ifNoneMatch, searchText(q, uri), lang);
        if (inScheme != null) {
            return schemeAccess.visible(namespace, inScheme).chain(scheme -> list(scheme.namespace(), scheme, query, uri));
        }
        return callers.current().chain(c -> rights.forReading(namespace, c)).chain(ns -> list(ns.name(), null, query, uri));
    }

    /** A page as sent, from the rendered pages when its scheme (or namespace) has not changed since. */
    private Uni<Response> list(String namespace, SchemeRow only, ListQuery q, UriInfo uri) {
        Uni<String> readUnder = only != null ? Uni.createFrom().item(RenderedPages.ofScheme(only.id(), only.revision()))
                : schemes.namespaceRevision(namespace).map(RenderedPages::ofNamespace);
        PublicUrls urls = PublicUrls.of(uri);
        return readUnder.chain(state -> pages.get(state, urls, uri, () -> render(namespace, only, q, urls)))
                .map(page -> Etags.respond(page.rendered(), q.ifNoneMatch(),
                        PageLinks.withoutTotal(Response.ok(), uri, q.page(), page.more())).build());
    }

    private Uni<RenderedPages.Page> render(String namespace, SchemeRow only, ListQuery q, PublicUrls urls) {
        Long schemeId = only == null ? null : only.id();
        Uni<List<ConceptRepository.ConceptRow>> found = q.search() != null
                ? concepts.search(namespace, schemeId, q.search(), q.since(), q.page().limitPlusOne(), q.page().offset())
                : concepts.page(namespace, schemeId, q.since(), q.descending(), q.page().limitPlusOne(), q.page().offset());
        return found.chain(rows -> {
            boolean more = rows.size() > q.page().limit();
            List<ConceptRepository.ConceptRow> shown = rows.stream().limit(q.page().limit()).toList();
            if (shown.isEmpty()) {
                return Uni.createFrom().item(page(q.synsets() ? List.of() : new ConceptViews.Concepts(List.of()), false));
            }
            return schemesOf(namespace, shown, only).chain(byId -> concepts.details(shown.stream()
                    .map(ConceptRepository.ConceptRow::id).toList()).map(d -> page(q.synsets()
                            ? shown.stream().map(r -> ConceptViews.synset(r.id(), d)).toList()
                            : new ConceptViews.Concepts(shown.stream()
                                    .map(r -> ConceptViews.concept(r, byId.get(r.schemeId()), d, urls)).toList()),
                    more)));
        });
    }

    /** The schemes of a page of concepts, each read once. */
    private Uni<Map<Long, SchemeRow>> schemesOf(String namespace, List<ConceptRepository.ConceptRow> rows, SchemeRow only) {
        if (only != null) {
            return Uni.createFrom().item(Map.of(only.id(), only));
        }
        List<String> slugs = rows.stream().map(ConceptRepository.ConceptRow::schemeSlug).distinct().toList();
        Map<Long, SchemeRow> found = new HashMap<>();
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (String slug : slugs) {
            chain = chain.chain(() -> schemes.bySlug(namespace, slug).invoke(s -> found.put(s.id(), s)).replaceWithVoid());
        }
        return chain.map(v -> found);
    }

    private RenderedPages.Page page(Object body, boolean more) {
        return new RenderedPages.Page(Etags.render(mapper, body), more);
    }

    private Uni<ConceptViews.Concept> render(SchemeRow scheme, String id, PublicUrls urls) {
        return concepts.one(scheme.id(), id).chain(row -> concepts.details(List.of(id))
                .map(d -> ConceptViews.concept(row, scheme, d, urls)));
    }

    static ListQuery query(String since, String sort, String page, String perPage, String synsets, String ifNoneMatch,
            String q, String lang) {
        PageRequest request = PageRequest.of(page, perPage);
        OffsetDateTime after = null;
        if (since != null) {
            after = Timestamps.parse(since).map(i -> i.atOffset(ZoneOffset.UTC)).orElseThrow(() -> new ProblemException(400,
                    "Bad Request", "since must be an ISO 8601 timestamp such as 2026-01-18T11:03:26.395Z.",
                    List.of(new Problem.FieldError("since", "not an ISO 8601 timestamp"))));
        }
        if (sort != null && !sort.equals("updated_at_asc") && !sort.equals("updated_at_desc")) {
            throw new ProblemException(400, "Bad Request", "sort must be updated_at_asc or updated_at_desc.",
                    List.of(new Problem.FieldError("sort", "unknown order")));
        }
        if (q != null && sort != null) {
            throw new ProblemException(400, "Bad Request", "A search (q) is ordered by relevance; it takes no sort.",
                    List.of(new Problem.FieldError("sort", "not with q")));
        }
        if (q == null && lang != null) {
            throw new ProblemException(400, "Bad Request", "lang narrows a search: give q as well.",
                    List.of(new Problem.FieldError("lang", "only with q")));
        }
        return new ListQuery(after, "updated_at_desc".equals(sort), request, flag(synsets), ifNoneMatch,
                ConceptSearch.parse(q, lang));
    }

    /** An empty {@code q=} arrives as null; it is a search for nothing, refused, not a plain list. */
    private static String searchText(String q, UriInfo uri) {
        return q == null && uri.getQueryParameters().containsKey("q") ? "" : q;
    }

    private static boolean flag(String value) {
        if (value == null || value.equals("false")) {
            return false;
        }
        if (value.equals("true")) {
            return true;
        }
        throw new ProblemException(400, "Bad Request", "synsets must be true or false.",
                List.of(new Problem.FieldError("synsets", "must be true or false")));
    }
}
