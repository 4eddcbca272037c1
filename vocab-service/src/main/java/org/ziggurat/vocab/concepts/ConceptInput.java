package org.ziggurat.vocab.concepts;

import org.eclipse.microprofile.openapi.annotations.media.Schema;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import com.fasterxml.jackson.databind.JsonNode;
import org.ziggurat.platform.input.FieldChecks;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.vocab.Languages;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A concept as posted, with the SKOS integrity rules (S13, S14): at most one Preferred label per
 * language, and a label body once per concept and language (so the label types are disjoint).
 */
@RegisterForReflection
public record ConceptInput(String status, List<Label> labels, List<Note> notes, List<String> broader, List<Match> matches) {

    // Lists, not sets: a refusal names the choices in this order.
    public static final List<String> STATUSES = List.of("Unstable", "Testing", "Stable");
    public static final List<String> LABEL_TYPES = List.of("Preferred", "Alternative", "Hidden");
    public static final List<String> VERNACULAR = List.of("Vernacular", "Other", "Undetermined");
    public static final List<String> HISTORICAL = List.of("Current", "Historical", "Both", "Unknown", "NotApplicable");
    public static final List<String> NOTE_TYPES = List.of("Scope", "Definition", "Example", "History", "Editorial", "Change");
    public static final List<String> MATCHES = List.of("exactMatch", "closeMatch", "broadMatch", "narrowMatch", "relatedMatch");
    static final int MAX_ITEMS = 500;

    @RegisterForReflection
    public record Label(String type, String body, String language, boolean abbreviation, String vernacular, String historical) {
    }

    @RegisterForReflection
    public record Note(String type, String body, String language) {
    }

    @RegisterForReflection
    @Schema(name = "ConceptMatch")
    public record Match(String property, String url) {
    }

    /** The current concept in the form a body would have, so that a PATCH can be laid over it and checked whole. */
    public static ObjectNode asBody(String status, List<Label> labels, List<Note> notes,
            List<String> broader, List<Match> matches, ObjectMapper mapper) {
        var body = mapper.createObjectNode();
        body.put("status", status);
        body.set("labels", mapper.valueToTree(labels));
        body.set("notes", mapper.valueToTree(notes));
        body.set("broader", mapper.valueToTree(broader));
        body.set("matches", mapper.valueToTree(matches));
        return body;
    }

    /** The fields a PATCH may change; collections are replaced whole. */
    static final List<String> PATCHABLE = List.of("status", "labels", "notes", "broader", "matches");

    /**
     * A PATCH laid over the current concept (as {@link #asBody} gives it) and checked as a whole
     * concept: the fields the patch names replace the current ones, others are ignored.
     */
    public static ConceptInput patched(ObjectNode current, JsonNode patch) {
        if (patch == null || !patch.isObject()) {
            throw ProblemException.badRequest("A JSON object is required.");
        }
        ObjectNode merged = current.deepCopy();
        patch.fields().forEachRemaining(f -> {
            if (PATCHABLE.contains(f.getKey())) {
                merged.set(f.getKey(), f.getValue());
            }
        });
        return parse(merged);
    }

    public static ConceptInput parse(JsonNode body) {
        FieldChecks.object(body);
        FieldChecks checks = new FieldChecks();
        String status = checks.oneOf(body.get("status"), "status", STATUSES, "Unstable");
        List<Label> labels = new ArrayList<>();
        Set<String> preferred = new HashSet<>();
        Set<String> bodies = new HashSet<>();
        for (JsonNode l : array(body, "labels", checks)) {
            String at = "labels[" + labels.size() + "]";
            String type = checks.oneOf(l.get("type"), at + ".type", LABEL_TYPES, "Preferred");
            String text = checks.text(l.get("body"), at + ".body", 1000, true);
            String language = Languages.parse(l.get("language"), at + ".language", checks);
            String vernacular = checks.oneOf(l.get("vernacular"), at + ".vernacular", VERNACULAR, "Undetermined");
            String historical = checks.oneOf(l.get("historical"), at + ".historical", HISTORICAL, "Unknown");
            boolean abbreviation = l.path("abbreviation").asBoolean(false);
            if (type != null && type.equals("Preferred") && language != null && !preferred.add(language)) {
                checks.add(at + ".type", "a concept has at most one Preferred label per language");
            }
            if (text != null && language != null && !bodies.add(language + "\u0000" + text)) {
                checks.add(at + ".body", "the same label body appears twice in this language");
            }
            labels.add(new Label(type, text, language, abbreviation, vernacular, historical));
        }
        List<Note> notes = new ArrayList<>();
        for (JsonNode n : array(body, "notes", checks)) {
            String at = "notes[" + notes.size() + "]";
            notes.add(new Note(checks.oneOf(n.get("type"), at + ".type", NOTE_TYPES, "Scope"),
                    checks.text(n.get("body"), at + ".body", 10_000, true),
                    Languages.parse(n.get("language"), at + ".language", checks)));
        }
        List<String> broader = new ArrayList<>();
        for (JsonNode b : array(body, "broader", checks)) {
            String id = b.isTextual() ? b.asText() : null;
            if (id == null || !ConceptIds.FORM.matcher(id).matches()) {
                checks.add("broader[" + broader.size() + "]", "must be a concept id");
            }
            broader.add(id);
        }
        List<Match> matches = new ArrayList<>();
        for (JsonNode m : array(body, "matches", checks)) {
            String at = "matches[" + matches.size() + "]";
            String property = checks.requiredOneOf(m.get("property"), at + ".property", MATCHES);
            String url = checks.text(m.get("url"), at + ".url", 2000, true);
            if (url != null && !absoluteHttp(url)) {
                checks.add(at + ".url", "must be an absolute http(s) URL");
            }
            matches.add(new Match(property, url));
        }
        if (labels.stream().noneMatch(l -> "Preferred".equals(l.type()))) {
            checks.add("labels", "a concept needs a Preferred label");
        }
        checks.throwIfFailed("The concept is not valid.");
        return new ConceptInput(status, labels, notes, broader, matches);
    }

    private static List<JsonNode> array(JsonNode body, String field, FieldChecks checks) {
        JsonNode node = body.get(field);
        List<JsonNode> items = new ArrayList<>();
        if (node == null || node.isNull()) {
            return items;
        }
        if (!node.isArray() || node.size() > MAX_ITEMS) {
            checks.add(field, "must be an array of at most " + MAX_ITEMS + " entries");
            return items;
        }
        for (JsonNode item : node) {
            if (!item.isObject() && !field.equals("broader")) {
                checks.add(field + "[" + items.size() + "]", "must be an object");
                return new ArrayList<>();
            }
            items.add(item);
        }
        return items;
    }

    private static boolean absoluteHttp(String url) {
        try {
            URI uri = new URI(url);
            return uri.isAbsolute() && uri.getHost() != null && (uri.getScheme().equals("http") || uri.getScheme().equals("https"));
        } catch (Exception e) {
            return false;
        }
    }
}
