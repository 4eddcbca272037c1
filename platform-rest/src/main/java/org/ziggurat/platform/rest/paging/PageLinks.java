package org.ziggurat.platform.rest.paging;

import org.ziggurat.platform.paging.PageRequest;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * GitHub-style {@code Link} headers ({@code first}, {@code prev}, {@code next}, {@code last}) that
 * keep every other query parameter, built from the request's public URI (forwarded headers).
 */
public final class PageLinks {

    public static final String TOTAL_COUNT = "X-Total-Count";

    private PageLinks() {
    }

    /**
     * A counted page: the total, then the page's rows mapped to their views, answered with the
     * rows as a JSON array, the {@code Link} header and {@code X-Total-Count}.
     */
    public static <R> Uni<Response> countedPage(UriInfo uri, PageRequest request, Uni<Long> total,
            Function<PageRequest, Uni<List<R>>> rows, Function<R, ?> view) {
        return total.chain(count -> rows.apply(request)
                .map(page -> withTotal(Response.ok(page.stream().map(view).toList()), uri, request, count).build()));
    }

    /** When the total is known: all four relations, and {@code X-Total-Count}. */
    public static Response.ResponseBuilder withTotal(Response.ResponseBuilder builder, UriInfo uri, PageRequest request,
            long total) {
        int lastPage = (int) Math.max(1, Math.min(PageRequest.MAX_PAGE, (total + request.perPage() - 1) / request.perPage()));
        List<String> links = new ArrayList<>();
        if (request.page() < lastPage) {
            links.add(link(uri, request.page() + 1, request.perPage(), "next"));
            links.add(link(uri, lastPage, request.perPage(), "last"));
        }
        if (request.page() > 1) {
            links.add(link(uri, 1, request.perPage(), "first"));
            links.add(link(uri, Math.min(request.page() - 1, lastPage), request.perPage(), "prev"));
        }
        builder.header(TOTAL_COUNT, total);
        return links.isEmpty() ? builder : builder.header("Link", String.join(", ", links));
    }

    /** When counting would cost a scan: {@code next} only when the page came back full (fetched one extra row). */
    public static Response.ResponseBuilder withoutTotal(Response.ResponseBuilder builder, UriInfo uri,
            PageRequest request, boolean hasNext) {
        List<String> links = new ArrayList<>();
        if (hasNext) {
            links.add(link(uri, request.page() + 1, request.perPage(), "next"));
        }
        if (request.page() > 1) {
            links.add(link(uri, 1, request.perPage(), "first"));
            links.add(link(uri, request.page() - 1, request.perPage(), "prev"));
        }
        return links.isEmpty() ? builder : builder.header("Link", String.join(", ", links));
    }

    static String link(UriInfo uri, int page, int perPage, String rel) {
        String target = uri.getRequestUriBuilder()
                .replaceQueryParam("page", page)
                .replaceQueryParam("per_page", perPage)
                .build()
                .toString();
        return "<" + target + ">; rel=\"" + rel + "\"";
    }
}
