package org.ziggurat.platform.rest.queue;

import java.util.List;

/**
 * The lane in which a service's audit events reach the audit stream (events-service), as auth- and
 * directory-service keep it: rows with a {@code payload} (the event) that triggers write in the
 * transaction of a change, one lane for all replicas, in the order the queue first sees them. That
 * number ({@code seq}, from the schema's {@code audit_source_id}) becomes the event's
 * {@code source_id}, so events-service records each once, however often it is sent.
 */
public final class AuditLane {

    /** The most characters of an event's data events-service takes (its AuditService.MAX_DATA_CHARS). */
    public static final int MAX_DATA_CHARS = 65536;

    /**
     * What numbering writes besides the number: the event's source_id; and data too large for
     * events-service, which would stop the lane for good, replaced by its size.
     */
    static final String NUMBERED_PAYLOAD = "payload = jsonb_set(CASE WHEN length((q.payload->'data')::text) > " + MAX_DATA_CHARS
            + " THEN jsonb_set(q.payload, '{data}', jsonb_build_object('omitted', 'larger than the audit stream takes', "
            + "'characters', length((q.payload->'data')::text))) ELSE q.payload END, '{source_id}', to_jsonb(n.seq))";

    private AuditLane() {
    }

    /**
     * The lane of {@code table}'s rows for which {@code pending} holds (delivered ones have a
     * {@code done_at}), numbered under {@code lockKey}; delivered rows older than the purge's
     * cutoff go (events-service keeps them).
     */
    public static QueueTable.Builder of(String name, String table, String pending, String lockKey) {
        return QueueTable.of(name, table, pending).lanes(List.of(), "seq")
                .numbering(new QueueTable.Numbering("audit_source_id", lockKey, NUMBERED_PAYLOAD))
                .done("done_at = now(), last_error = NULL");
    }
}
