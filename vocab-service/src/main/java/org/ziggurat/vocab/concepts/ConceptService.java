package org.ziggurat.vocab.concepts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.platform.rest.http.PublicUrls;
import org.ziggurat.platform.paging.PageRequest;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Caller;
import org.ziggurat.vocab.Etags;
import org.ziggurat.vocab.RenderedPages;
import org.ziggurat.vocab.schemes.SchemeRepository;
import org.ziggurat.vocab.schemes.SchemeRow;
import org.ziggurat.vocab.schemes.SchemeService;

import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ziggurat.platform.token.ScopeNames;

/**
 * Concepts of a scheme: creating them ({@code write}), changing and deleting them ({@code update}),
 * and reading them as rendered pages, served again from {@link RenderedPages} while their scheme
 * (or namespace) is at the same revision.
 */
@ApplicationScoped
public class ConceptService {

    /** What a list asks for: its filters and page, as the resource parsed them. */
    public record ListQuery(OffsetDateTime since, boolean descending, PageRequest page, boolean synsets,
            ConceptSearch search) {
    }

    private final SchemeService schemeService;
    private final SchemeRepository schemes;
    private final ConceptRepository concepts;
    private final RenderedPages pages;
    private final ObjectMapper mapper;

    ConceptService(SchemeService schemeService, SchemeRepository schemes,
            ConceptRepository concepts, RenderedPages pages, ObjectMapper mapper) {
        this.schemeService = schemeService;
        this.schemes = schemes;
        this.concepts = concepts;
        this.pages = pages;
        this.mapper = mapper;
    }

    public Uni<ConceptViews.Concept> create(String namespace, String slug, ConceptInput input, Caller caller,
            PublicUrls urls) {
        return schemeService.writable(namespace, slug, caller, ScopeNames.WRITE)
                .chain(scheme -> concepts.insert(scheme.id(), input, caller.requireUser(), caller.username().orElse(""))
                        .chain(id -> view(scheme, id, urls)));
    }

    /** Changes the fields the patch names (collections are replaced whole), checked as a whole concept. */
    public Uni<ConceptViews.Concept> update(String namespace, String slug, String id, JsonNode patch, Caller caller,
            PublicUrls urls) {
        return schemeService.writable(namespace, slug, caller, ScopeNames.UPDATE)
                .chain(scheme -> concepts.one(scheme.id(), id)
                        .onItem().ifNull().failWith(() -> notFound(id))
                        .chain(row -> concepts.details(List.of(id)).map(d -> ConceptInput.patched(ConceptInput.asBody(
                                row.status(), d.labels().getOrDefault(id, List.of()), d.notes().getOrDefault(id, List.of()),
                                d.broader().getOrDefault(id, List.of()), d.matches().getOrDefault(id, List.of()), mapper),
                                patch)))
                        .chain(input -> concepts.replace(scheme.id(), id, input, caller.username().orElse("")))
                        .chain(() -> view(scheme, id, urls)));
    }

    public Uni<Void> delete(String namespace, String slug, String id, Caller caller) {
        return schemeService.writable(namespace, slug, caller, ScopeNames.UPDATE)
                .chain(scheme -> concepts.delete(scheme.id(), id))
                .map(deleted -> {
                    if (!deleted) {
                        throw notFound(id);
                    }
                    return null;
                });
    }

    /** One concept of a visible scheme, as a concept list of one or as its synset. */
    public Uni<RenderedPages.Page> one(SchemeRow scheme, String id, boolean asSynset, PublicUrls urls, UriInfo uri) {
        return pages.get(RenderedPages.ofScheme(scheme.id(), scheme.revision()), urls, uri, () -> concepts
                .one(scheme.id(), id)
                .onItem().ifNull().failWith(() -> notFound(id))
                .chain(row -> concepts.details(List.of(row.id())).map(d -> page(asSynset ? ConceptViews.synset(row.id(), d)
                        : new ConceptViews.Concepts(List.of(ConceptViews.concept(row, scheme, d, urls))), false))));
    }

    /** A page of a namespace the caller may read. */
    public Uni<RenderedPages.Page> ofNamespace(String namespace, Caller caller, ListQuery q, PublicUrls urls, UriInfo uri) {
        return schemeService.readableNamespace(namespace, caller).chain(ns -> list(ns.name(), null, q, urls, uri));
    }

    /** A page of a visible scheme. */
    public Uni<RenderedPages.Page> ofScheme(SchemeRow scheme, ListQuery q, PublicUrls urls, UriInfo uri) {
        return list(scheme.namespace(), scheme, q, urls, uri);
    }

    private Uni<RenderedPages.Page> list(String namespace, SchemeRow only, ListQuery q, PublicUrls urls, UriInfo uri) {
        Uni<String> readUnder = only != null ? Uni.createFrom().item(RenderedPages.ofScheme(only.id(), only.revision()))
                : schemes.namespaceRevision(namespace).map(RenderedPages::ofNamespace);
        return readUnder.chain(state -> pages.get(state, urls, uri, () -> render(namespace, only, q, urls)));
    }

    private Uni<RenderedPages.Page> render(String namespace, SchemeRow only, ListQuery q, PublicUrls urls) {
        Long schemeId = only == null ? null : only.id();
        Uni<List<ConceptRow>> found = q.search() != null
                ? concepts.search(namespace, schemeId, q.search(), q.since(), q.page().limitPlusOne(), q.page().offset())
                : concepts.page(namespace, schemeId, q.since(), q.descending(), q.page().limitPlusOne(), q.page().offset());
        return found.chain(rows -> {
            boolean more = rows.size() > q.page().limit();
            List<ConceptRow> shown = rows.stream().limit(q.page().limit()).toList();
            if (shown.isEmpty()) {
                return Uni.createFrom().item(page(q.synsets() ? List.of() : new ConceptViews.Concepts(List.of()), false));
            }
            return schemesOf(namespace, shown, only).chain(byId -> concepts.details(shown.stream()
                    .map(ConceptRow::id).toList()).map(d -> page(q.synsets()
                            ? shown.stream().map(r -> ConceptViews.synset(r.id(), d)).toList()
                            : new ConceptViews.Concepts(shown.stream()
                                    .map(r -> ConceptViews.concept(r, byId.get(r.schemeId()), d, urls)).toList()),
                    more)));
        });
    }

    /** The schemes of a page of concepts, each read once. */
    private Uni<Map<Long, SchemeRow>> schemesOf(String namespace, List<ConceptRow> rows, SchemeRow only) {
        if (only != null) {
            return Uni.createFrom().item(Map.of(only.id(), only));
        }
        List<String> slugs = rows.stream().map(ConceptRow::schemeSlug).distinct().toList();
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

    private Uni<ConceptViews.Concept> view(SchemeRow scheme, String id, PublicUrls urls) {
        return concepts.one(scheme.id(), id).chain(row -> concepts.details(List.of(id))
                .map(d -> ConceptViews.concept(row, scheme, d, urls)));
    }

    static ProblemException notFound(String id) {
        return ProblemException.notFound("No concept has the id '" + id + "'.");
    }
}
