package org.ziggurat.vocab.concepts;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import com.fasterxml.jackson.databind.JsonNode;
import org.ziggurat.platform.problem.Problem;
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

    public static final Set<String> STATUSES = Set.of("Unstable", "Testing", "Stable");
    public static final Set<String> LABEL_TYPES = Set.of("Preferred", "Alternative", "Hidden");
    public static final Set<String> VERNACULAR = Set.of("Vernacular", "Other", "Undetermined");
    public static final Set<String> HISTORICAL = Set.of("Current", "Historical", "Both", "Unknown", "NotApplicable");
    public static final Set<String> NOTE_TYPES = Set.of("Scope", "Definition", "Example", "History", "Editorial", "Change");
    public static final Set<String> MATCHES = Set.of("exactMatch", "closeMatch", "broadMatch", "narrowMatch", "relatedMatch");
    static final int MAX_ITEMS = 500;

    @RegisterForReflection
    public record Label(String type, String body, String language, boolean abbreviation, String vernacular, String historical) {
    }

    @RegisterForReflection
    public record Note(String type, String body, String language) {
    }

    @RegisterForReflection
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
        if (body == null || !body.isObject()) {
            throw ProblemException.badRequest("The body must be a JSON object.");
        }
        List<Problem.FieldError> errors = new ArrayList<>();
        String status = "Unstable";
        JsonNode s = body.get("status");
        if (s != null && !s.isNull()) {
            if (!s.isTextual() || !STATUSES.contains(s.asText())) {
                errors.add(new Problem.FieldError("status", "must be Unstable, Testing or Stable"));
            } else {
                status = s.asText();
            }
        }
        List<Label> labels = new ArrayList<>();
        Set<String> preferred = new HashSet<>();
        Set<String> bodies = new HashSet<>();
        for (JsonNode l : array(body, "labels", errors)) {
            String at = "labels[" + labels.size() + "]";
            String type = choice(l.get("type"), LABEL_TYPES, "Preferred", at + ".type", errors);
            String text = text(l.get("body"), at + ".body", 1000, errors);
            String language = language(l.get("language"), at + ".language", errors);
            String vernacular = choice(l.get("vernacular"), VERNACULAR, "Undetermined", at + ".vernacular", errors);
            String historical = choice(l.get("historical"), HISTORICAL, "Unknown", at + ".historical", errors);
            boolean abbreviation = l.path("abbreviation").asBoolean(false);
            if (type != null && type.equals("Preferred") && language != null && !preferred.add(language)) {
                errors.add(new Problem.FieldError(at + ".type", "a concept has at most one Preferred label per language"));
            }
            if (text != null && language != null && !bodies.add(language + "\u0000" + text)) {
                errors.add(new Problem.FieldError(at + ".body", "the same label body appears twice in this language"));
            }
            labels.add(new Label(type, text, language, abbreviation, vernacular, historical));
        }
        List<Note> notes = new ArrayList<>();
        for (JsonNode n : array(body, "notes", errors)) {
            String at = "notes[" + notes.size() + "]";
            notes.add(new Note(choice(n.get("type"), NOTE_TYPES, "Scope", at + ".type", errors),
                    text(n.get("body"), at + ".body", 10_000, errors), language(n.get("language"), at + ".language", errors)));
        }
        List<String> broader = new ArrayList<>();
        for (JsonNode b : array(body, "broader", errors)) {
            String id = b.isTextual() ? b.asText() : null;
            if (id == null || !ConceptIds.FORM.matcher(id).matches()) {
                errors.add(new Problem.FieldError("broader[" + broader.size() + "]", "must be a concept id"));
            }
            broader.add(id);
        }
        List<Match> matches = new ArrayList<>();
        for (JsonNode m : array(body, "matches", errors)) {
            String at = "matches[" + matches.size() + "]";
            String property = choice(m.get("property"), MATCHES, null, at + ".property", errors);
            String url = text(m.get("url"), at + ".url", 2000, errors);
            if (url != null && !absoluteHttp(url)) {
                errors.add(new Problem.FieldError(at + ".url", "must be an absolute http(s) URL"));
            }
            matches.add(new Match(property, url));
        }
        if (labels.stream().noneMatch(l -> "Preferred".equals(l.type()))) {
            errors.add(new Problem.FieldError("labels", "a concept needs a Preferred label"));
        }
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("The concept is not valid.", errors);
        }
        return new ConceptInput(status, labels, notes, broader, matches);
    }

    private static List<JsonNode> array(JsonNode body, String field, List<Problem.FieldError> errors) {
        JsonNode node = body.get(field);
        List<JsonNode> items = new ArrayList<>();
        if (node == null || node.isNull()) {
            return items;
        }
        if (!node.isArray() || node.size() > MAX_ITEMS) {
            errors.add(new Problem.FieldError(field, "must be an array of at most " + MAX_ITEMS + " entries"));
            return items;
        }
        for (JsonNode item : node) {
            if (!item.isObject() && !field.equals("broader")) {
                errors.add(new Problem.FieldError(field + "[" + items.size() + "]", "must be an object"));
                return new ArrayList<>();
            }
            items.add(item);
        }
        return items;
    }

    private static String choice(JsonNode node, Set<String> allowed, String fallback, String field, List<Problem.FieldError> errors) {
        if (node == null || node.isNull()) {
            if (fallback == null) {
                errors.add(new Problem.FieldError(field, "is required: one of " + String.join(", ", allowed)));
            }
            return fallback;
        }
        if (!node.isTextual() || !allowed.contains(node.asText())) {
            errors.add(new Problem.FieldError(field, "must be one of " + String.join(", ", allowed)));
            return null;
        }
        return node.asText();
    }

    private static String text(JsonNode node, String field, int max, List<Problem.FieldError> errors) {
        if (node == null || !node.isTextual() || node.asText().isBlank() || node.asText().length() > max) {
            errors.add(new Problem.FieldError(field, "is required: 1 to " + max + " characters"));
            return null;
        }
        return node.asText().strip();
    }

    private static String language(JsonNode node, String field, List<Problem.FieldError> errors) {
        String code = node != null && node.isTextual() ? Languages.parse(node.asText()).orElse(null) : null;
        if (code == null) {
            errors.add(new Problem.FieldError(field, "must be a language: en, eng or 'eng (en) - English'"));
        }
        return code;
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
