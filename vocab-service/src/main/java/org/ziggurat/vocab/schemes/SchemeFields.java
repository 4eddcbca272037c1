package org.ziggurat.vocab.schemes;

import com.fasterxml.jackson.databind.JsonNode;
import org.ziggurat.platform.problem.Problem;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.vocab.Languages;

import java.util.ArrayList;
import java.util.List;

/** A scheme's fields as a request gives them, checked: all the problems of a body at once (422). */
public record SchemeFields(String slug, String abbr, String title, String definition, String language) {

    /** {@code creating}: the slug and title are required; otherwise the slug cannot be given. */
    public static SchemeFields parse(JsonNode body, boolean creating) {
        if (body == null || !body.isObject()) {
            throw ProblemException.badRequest("A JSON object is required.");
        }
        List<Problem.FieldError> errors = new ArrayList<>();
        String slug = null;
        if (creating) {
            slug = text(body, "slug", 64, true, errors);
            if (slug != null && !slug.matches("[a-z0-9][a-z0-9-]{0,63}")) {
                errors.add(new Problem.FieldError("slug", "lower-case letters, digits and dashes, starting with a letter or digit"));
            }
        } else if (body.has("slug")) {
            errors.add(new Problem.FieldError("slug", "cannot be changed"));
        }
        String abbr = text(body, "abbr", 32, false, errors);
        String title = text(body, "title", 500, creating, errors);
        JsonNode d = body.get("definition");
        String definition = null;
        if (d != null && !d.isNull()) {
            if (!d.isTextual() || d.asText().length() > 20_000) {
                errors.add(new Problem.FieldError("definition", "must be a string of at most 20000 characters"));
            } else {
                definition = d.asText();
            }
        }
        String language = null;
        JsonNode l = body.get("default_language");
        if (l != null && !l.isNull()) {
            language = l.isTextual() ? Languages.parse(l.asText()).orElse(null) : null;
            if (language == null) {
                errors.add(new Problem.FieldError("default_language", "must be a language: en, eng or 'eng (en) - English'"));
            }
        }
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("The scheme is not valid.", errors);
        }
        return new SchemeFields(slug, abbr, title, definition, language);
    }

    private static String text(JsonNode body, String field, int max, boolean required, List<Problem.FieldError> errors) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            if (required) {
                errors.add(new Problem.FieldError(field, "is required"));
            }
            return null;
        }
        if (!node.isTextual() || node.asText().isBlank() || node.asText().length() > max) {
            errors.add(new Problem.FieldError(field, "must be 1 to " + max + " characters"));
            return null;
        }
        return node.asText().strip();
    }
}
