package org.ziggurat.vocab.concepts;

import io.vertx.mutiny.sqlclient.Row;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/** A concept's own row, with its scheme's namespace and slug; the labels and the rest are its {@link ConceptRepository.Details}. */
public record ConceptRow(String id, long schemeId, String schemeNamespace, String schemeSlug, String status,
        String creatorUsername, List<String> contributors, Instant createdAt, Instant updatedAt) {
    static final String COLUMNS = "c.id, c.scheme_id, s.namespace, s.slug, c.status, c.creator_username, c.contributors, "
            + "c.created_at, c.updated_at";

    static ConceptRow from(Row r) {
        return new ConceptRow(r.getString("id"), r.getLong("scheme_id"), r.getString("namespace"), r.getString("slug"),
                r.getString("status"), r.getString("creator_username"), Arrays.asList(r.getArrayOfStrings("contributors")),
                r.getOffsetDateTime("created_at").toInstant(), r.getOffsetDateTime("updated_at").toInstant());
    }
}
