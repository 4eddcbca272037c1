package org.ziggurat.events.data;

import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The data event input's shape, for the API's description: {@link EventInput#parse} is what checks it. */
final class EventDocs {

    private EventDocs() {
    }

    @Schema(name = "DataEventInput")
    record EventInput(
            @Schema(enumeration = {"FileUpload", "API-Request", "Fork"}, defaultValue = "API-Request") String kind,
            @Schema(required = true, description = "What happened, 1 character at least.") String note,
            @Schema(description = "The items the event changed.") List<CommitInput> commitsAttributes) {
    }

    @Schema(name = "CommitInput")
    record CommitInput(
            @Schema(required = true, example = "Aggregation::Commit::Legacy") String type,
            @Schema(required = true) org.ziggurat.events.data.EventInput.Identifier identifier,
            @Schema(description = "The item's new content: any JSON object.") Map<String, Object> payload) {
    }
}
