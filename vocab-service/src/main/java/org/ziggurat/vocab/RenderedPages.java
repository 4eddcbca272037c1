package org.ziggurat.vocab;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Scheduler;
import com.github.benmanes.caffeine.cache.Ticker;
import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.platform.rest.http.PublicUrls;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Concept views and pages as sent, kept by each replica under the revisions they were read at.
 *
 * <p>Rendering a page of 30 concepts (about 600 labels, 130 KB of JSON) cost ten times the
 * database reads behind it, and vocabularies are read far more often than written. A request
 * reads its scheme anyway (for access and the scheme's fields); its revision, which every write
 * to the scheme or its concepts changes in the same transaction, names the state a cached page
 * shows. A page is therefore never older than what the request itself would have read; no
 * time-to-live, and no invalidation message between replicas, is needed. Lists across a whole
 * namespace are read under all its schemes' revisions.
 *
 * <p>The cache is bounded by the bytes it holds ({@code ziggurat.vocab.rendered-cache-size}; 0
 * switches it off). A page not read for {@code ziggurat.vocab.rendered-cache-idle} is dropped, on
 * time and not at the next write: the pages of a scheme's earlier revisions are never read again,
 * and a page read less often than that saves less than one rendering per period. Without it, what a
 * busy hour rendered stayed in the heap until the byte bound pushed it out, which an idle replica
 * never does (70 MiB of dead pages after the bench's reads).
 */
@ApplicationScoped
public class RenderedPages {

    /** A body as sent, and whether a next page follows (the Link header is built per request). */
    public record Page(Etags.Rendered rendered, boolean more) {
    }

    private record Key(String readUnder, String request) {
    }

    private final Cache<Key, Page> pages;

    @Inject
    public RenderedPages(VocabConfig config) {
        this(config.renderedCacheSize(), config.renderedCacheIdle(), Ticker.systemTicker());
    }

    RenderedPages(MemorySize size, Duration idle, Ticker ticker) {
        long bytes = size.asLongValue();
        this.pages = bytes <= 0 ? null
                : Caffeine.newBuilder().maximumWeight(bytes)
                        .<Key, Page>weigher((k, p) -> p.rendered().body().length + 2 * k.request().length()
                                + k.readUnder().length() + 200)
                        .expireAfterAccess(idle)
                        // Removes expired pages when they expire, not at the next read or write.
                        .scheduler(Scheduler.systemScheduler())
                        .ticker(ticker)
                        .build();
    }

    /** The scheme's state, for a view or page of its concepts alone. */
    public static String ofScheme(long schemeId, long revision) {
        return "s" + schemeId + "." + revision;
    }

    /** A namespace's state, from {@code SchemeRepository.namespaceRevision}. */
    public static String ofNamespace(String schemeRevisions) {
        return "n" + schemeRevisions;
    }

    /**
     * The page this request asks for, read under {@code readUnder}: from the cache, or rendered
     * and kept. The key is the request's public base ({@code urls}, which the caller has already
     * computed; links in the body are absolute) and the whole request URI. {@code If-None-Match}
     * is answered from the kept ETag.
     */
    public Uni<Page> get(String readUnder, PublicUrls urls, UriInfo uri, Supplier<Uni<Page>> render) {
        return get(readUnder, urls.apiBase() + " " + uri.getRequestUri(), render);
    }

    Uni<Page> get(String readUnder, String request, Supplier<Uni<Page>> render) {
        if (pages == null) {
            return render.get();
        }
        Key key = new Key(readUnder, request);
        Page kept = pages.getIfPresent(key);
        if (kept != null) {
            return Uni.createFrom().item(kept);
        }
        return render.get().invoke(page -> pages.put(key, page));
    }

    /** How many pages are kept now. */
    long kept() {
        return pages == null ? 0 : pages.estimatedSize();
    }
}
