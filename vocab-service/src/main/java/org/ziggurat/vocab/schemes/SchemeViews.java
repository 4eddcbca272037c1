package org.ziggurat.vocab.schemes;

import org.eclipse.microprofile.openapi.annotations.media.Schema;
import io.quarkus.runtime.annotations.RegisterForReflection;
import org.ziggurat.platform.rest.http.PublicUrls;

/** The spec's Vocabulary scheme. */
public final class SchemeViews {

    private SchemeViews() {
    }

    @RegisterForReflection
    @Schema(name = "SchemeCreator")
    public record Creator(String name, String htmlUrl) {
    }

    @RegisterForReflection
    public record Scheme(String id, String abbr, String title, String definition, String url, String htmlUrl, Creator creator) {
    }

    public static Scheme scheme(SchemeRow row, PublicUrls urls) {
        return new Scheme(row.slug(), row.abbr(), row.title(), row.definition(),
                urls.api("/" + row.namespace() + "/vocab/schemes/" + row.slug()),
                urls.web("/" + row.namespace() + "/vocab/" + row.slug()),
                new Creator(row.creatorUsername(), urls.web("/" + row.creatorUsername())));
    }
}
