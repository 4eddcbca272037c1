package org.ziggurat.vocab.concepts;

import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The shapes of the concept routes' answers, for the API's description only. */
final class ConceptSchemas {

    private ConceptSchemas() {
    }

    /** A concept with synsets=true, for the API's description: its label strings. */
    @Schema(name = "Synset", type = SchemaType.ARRAY, implementation = String.class)
    interface Synset {
    }

    /** A list of concepts: the concepts wrapper, or with synsets=true their label strings. */
    @Schema(name = "ConceptList", oneOf = {ConceptViews.Concepts.class, Synsets.class})
    interface ConceptList {
    }

    /** One concept: in the concepts wrapper, or with synsets=true its label strings. */
    @Schema(name = "OneConcept", oneOf = {ConceptViews.Concepts.class, Synset.class})
    interface OneConcept {
    }

    /** A list with synsets=true: one array of label strings per concept. */
    @Schema(name = "Synsets", type = SchemaType.ARRAY, implementation = Synset.class)
    interface Synsets {
    }
}
