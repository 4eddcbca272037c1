package org.ziggurat.vocab.schemes;

import com.fasterxml.jackson.databind.JsonNode;
import org.ziggurat.platform.input.FieldChecks;
import org.ziggurat.vocab.Languages;


/** A scheme's fields as a request gives them, checked: all the problems of a body at once (422). */
public record SchemeFields(String slug, String abbr, String title, String definition, String language) {

    /** {@code creating}: the slug and title are required; otherwise the slug cannot be given. */
    public static SchemeFields parse(JsonNode body, boolean creating) {
        FieldChecks.object(body);
        FieldChecks checks = new FieldChecks();
        String slug = null;
        if (creating) {
            slug = checks.text(body.get("slug"), "slug", 64, true);
            if (slug != null && !slug.matches("[a-z0-9][a-z0-9-]{0,63}")) {
                checks.add("slug", "lower-case letters, digits and dashes, starting with a letter or digit");
            }
        } else if (body.has("slug")) {
            checks.add("slug", "cannot be changed");
        }
        String abbr = checks.text(body.get("abbr"), "abbr", 32, false);
        String title = checks.text(body.get("title"), "title", 500, creating);
        JsonNode d = body.get("definition");
        String definition = null;
        if (d != null && !d.isNull()) {
            if (!d.isTextual() || d.asText().length() > 20_000) {
                checks.add("definition", "must be a string of at most 20000 characters");
            } else {
                definition = d.asText();
            }
        }
        String language = null;
        JsonNode l = body.get("default_language");
        if (l != null && !l.isNull()) {
            language = Languages.parse(l, "default_language", checks);
        }
        checks.throwIfFailed("The scheme is not valid.");
        return new SchemeFields(slug, abbr, title, definition, language);
    }
}
