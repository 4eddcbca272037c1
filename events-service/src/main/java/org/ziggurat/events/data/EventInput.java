package org.ziggurat.events.data;

import io.quarkus.runtime.annotations.RegisterForReflection;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import com.fasterxml.jackson.databind.JsonNode;
import org.ziggurat.events.EventsConfig;
import org.ziggurat.platform.input.FieldChecks;

import java.util.ArrayList;
import java.util.List;

/** A new data event as posted (spec 4.7), validated: every fault named, never a 500. */
@RegisterForReflection
public record EventInput(String kind, String note, List<CommitInput> commits) {

    /** A list, not a set: a refusal names the kinds in this order. */
    public static final List<String> KINDS = List.of("FileUpload", "API-Request", "Fork");
    public static final String DEFAULT_KIND = "API-Request";
    static final int MAX_TEXT = 255;

    @Schema(name = "ItemIdentifier")
    public record Identifier(String id, String type, String agent) implements Comparable<Identifier> {
        @Override
        public int compareTo(Identifier o) {
            int c = id.compareTo(o.id);
            if (c != 0) {
                return c;
            }
            c = type.compareTo(o.type);
            return c != 0 ? c : agent.compareTo(o.agent);
        }
    }

    public record CommitInput(String type, Identifier identifier, JsonNode payload) {
    }

    public static EventInput parse(JsonNode body, EventsConfig limits) {
        FieldChecks.object(body);
        FieldChecks errors = new FieldChecks();
        String kind = errors.oneOf(body.get("kind"), "kind", KINDS, DEFAULT_KIND);
        // The note is kept as written, but is never blank.
        String note = errors.string(body.get("note"), "note", limits.maxNoteLength(), true);
        if (note != null && note.isBlank()) {
            errors.add("note", "must be 1 to " + limits.maxNoteLength() + " characters");
            note = null;
        }
        List<CommitInput> commits = new ArrayList<>();
        JsonNode list = body.get("commits_attributes");
        if (list != null && !list.isNull()) {
            if (!list.isArray()) {
                errors.add("commits_attributes", "must be an array");
            } else if (list.size() > limits.maxCommits()) {
                errors.add("commits_attributes", "at most " + limits.maxCommits() + " commits an event");
            } else {
                int values = 0;
                for (int i = 0; i < list.size(); i++) {
                    CommitInput commit = commit(list.get(i), "commits_attributes[" + i + "]", limits, errors);
                    if (commit != null) {
                        commits.add(commit);
                        values += Changesets.values(commit.payload(), limits.maxPayloadValues() - values);
                        if (values > limits.maxPayloadValues()) {
                            errors.add("commits_attributes[" + i + "].payload", "the payloads of an "
                                    + "event may hold at most " + limits.maxPayloadValues() + " values (objects, arrays "
                                    + "and scalars) together");
                            break;
                        }
                    }
                }
            }
        }
        errors.throwIfFailed("The data event is not valid.");
        return new EventInput(kind, note, commits);
    }

    private static CommitInput commit(JsonNode c, String at, EventsConfig limits, FieldChecks errors) {
        if (!c.isObject()) {
            errors.add(at, "must be an object");
            return null;
        }
        int before = errors.errors().size();
        String type = text(c.get("type"), at + ".type", errors);
        JsonNode ident = c.get("identifier");
        Identifier identifier = null;
        if (ident == null || !ident.isObject()) {
            errors.add(at + ".identifier", "is required: an object with id, type and agent");
        } else {
            String id = text(ident.get("id"), at + ".identifier.id", errors);
            String itype = text(ident.get("type"), at + ".identifier.type", errors);
            String agent = text(ident.get("agent"), at + ".identifier.agent", errors);
            identifier = new Identifier(id, itype, agent);
        }
        JsonNode payload = c.get("payload");
        if (payload == null || !payload.isObject()) {
            errors.add(at + ".payload", "is required: an object");
        } else if (depth(payload, limits.maxPayloadDepth() + 1) > limits.maxPayloadDepth()) {
            errors.add(at + ".payload", "nests deeper than " + limits.maxPayloadDepth() + " levels");
        }
        return errors.errors().size() == before ? new CommitInput(type, identifier, payload) : null;
    }

    private static String text(JsonNode node, String field, FieldChecks errors) {
        return errors.string(node, field, MAX_TEXT, true);
    }

    /** Depth of nesting, counting stops once past the limit. */
    static int depth(JsonNode node, int stopAt) {
        if (!node.isContainerNode()) {
            return 0;
        }
        int deepest = 0;
        for (JsonNode child : node) {
            deepest = Math.max(deepest, depth(child, stopAt - 1));
            if (deepest + 1 >= stopAt) {
                break;
            }
        }
        return deepest + 1;
    }
}
