package org.ziggurat.vocab.schemes;

import io.vertx.mutiny.sqlclient.Row;

import java.time.Instant;

/** A scheme; {@code revision} changes with every write to it or to its concepts (see {@code RenderedPages}). */
public record SchemeRow(long id, String namespace, String slug, String abbr, String title, String definition,
        String defaultLanguage, long creatorId, String creatorUsername, Instant createdAt, Instant updatedAt, long revision) {

    public static final String COLUMNS = "s.id, s.namespace, s.slug, s.abbr, s.title, s.definition, s.default_language, "
            + "s.creator_id, s.creator_username, s.created_at, s.updated_at, "
            + "s.revision";

    public static SchemeRow from(Row r) {
        return new SchemeRow(r.getLong("id"), r.getString("namespace"), r.getString("slug"), r.getString("abbr"),
                r.getString("title"), r.getString("definition"), r.getString("default_language"), r.getLong("creator_id"),
                r.getString("creator_username"), r.getOffsetDateTime("created_at").toInstant(),
                r.getOffsetDateTime("updated_at").toInstant(), r.getLong("revision"));
    }
}
