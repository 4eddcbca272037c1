package org.ziggurat.vocab.concepts;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The concept input's shape, for the API's description: {@link ConceptInput#parse} is what checks it. */
final class ConceptDocs {

    private ConceptDocs() {
    }

    @Schema(name = "ConceptInput", description = "A concept to create, or the fields to change (PATCH). Languages are "
            + "given as en, eng or 'eng (en) - English'. Label bodies are unique per concept and language; at most one "
            + "Preferred label per language.")
    record NewConcept(
            @Schema(enumeration = {"Unstable", "Testing", "Stable"}, defaultValue = "Unstable") String status,
            @Schema(maxItems = ConceptInput.MAX_ITEMS, description = "A Preferred label at least.") List<LabelInput> labels,
            @Schema(maxItems = ConceptInput.MAX_ITEMS) List<NoteInput> notes,
            @Schema(maxItems = ConceptInput.MAX_ITEMS, description = "Ids of broader concepts in the same scheme.")
            List<String> broader,
            @Schema(maxItems = ConceptInput.MAX_ITEMS) List<MatchInput> matches) {
    }

    @Schema(name = "LabelInput")
    record LabelInput(
            @Schema(enumeration = {"Preferred", "Alternative", "Hidden"}, defaultValue = "Preferred") String type,
            @Schema(required = true, maxLength = 1000) String body,
            @Schema(required = true, example = "en") String language,
            Boolean abbreviation,
            @Schema(enumeration = {"Vernacular", "Other", "Undetermined"}, defaultValue = "Undetermined") String vernacular,
            @Schema(enumeration = {"Current", "Historical", "Both", "Unknown", "NotApplicable"}, defaultValue = "Unknown")
            String historical) {
    }

    @Schema(name = "NoteInput")
    record NoteInput(
            @Schema(enumeration = {"Scope", "Definition", "Example", "History", "Editorial", "Change"}, defaultValue = "Scope")
            String type,
            @Schema(required = true, maxLength = 10000) String body,
            @Schema(required = true, example = "en") String language) {
    }

    @Schema(name = "MatchInput", description = "A SKOS mapping to a concept elsewhere.")
    record MatchInput(
            @Schema(required = true, enumeration = {"exactMatch", "closeMatch", "broadMatch", "narrowMatch", "relatedMatch"})
            String property,
            @Schema(required = true, maxLength = 2000, description = "An absolute http(s) URL.") String url) {
    }
}
