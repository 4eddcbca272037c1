package org.ziggurat.vocab.imports;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.json.JsonArray;
import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.mutiny.sqlclient.Row;

import java.time.Instant;
import java.time.OffsetDateTime;

/** An import job as stored (without its document). */
public record ImportJob(long id, long schemeId, String format, String state, Integer conceptsTotal, int conceptsDone,
        int conceptsCreated, int conceptsReplaced, JsonNode errors, JsonNode warnings, Instant createdAt, Instant startedAt,
        Instant finishedAt) {

    static final String COLUMNS = "j.id, j.scheme_id, j.format, j.state, j.concepts_total, j.concepts_done, "
            + "j.concepts_created, j.concepts_replaced, j.errors, j.warnings, j.created_at, j.started_at, j.finished_at";

    static ImportJob from(Row r, ObjectMapper mapper) {
        return new ImportJob(r.getLong("id"), r.getLong("scheme_id"), r.getString("format"), r.getString("state"),
                r.getInteger("concepts_total"), r.getInteger("concepts_done"), r.getInteger("concepts_created"),
                r.getInteger("concepts_replaced"), json(r, "errors", mapper), json(r, "warnings", mapper),
                instant(r.getOffsetDateTime("created_at")), instant(r.getOffsetDateTime("started_at")),
                instant(r.getOffsetDateTime("finished_at")));
    }

    private static JsonNode json(Row r, String column, ObjectMapper mapper) {
        Object value = r.getValue(column);
        return mapper.valueToTree(value instanceof JsonArray a ? a.getList() : value);
    }

    private static Instant instant(OffsetDateTime at) {
        return at == null ? null : at.toInstant();
    }
}
