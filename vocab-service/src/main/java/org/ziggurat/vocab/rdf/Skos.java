package org.ziggurat.vocab.rdf;

import java.util.HashMap;
import java.util.Locale;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.SKOS;
import org.eclipse.rdf4j.model.vocabulary.SKOSXL;
import org.eclipse.rdf4j.rio.RDFFormat;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How the platform's vocabularies read as SKOS. Labels are SKOS labels; a label whose
 * abbreviation, vernacular or historical attribute is not the default is also given as a SKOS-XL
 * label carrying them. The concept's status is the one statement SKOS has no word for.
 */
public final class Skos {

    public static final String NAMESPACE = "urn:ziggurat:vocab#";
    static final ValueFactory VALUES = SimpleValueFactory.getInstance();
    static final IRI STATUS = VALUES.createIRI(NAMESPACE, "status");
    static final IRI ABBREVIATION = VALUES.createIRI(NAMESPACE, "abbreviation");
    static final IRI VERNACULAR = VALUES.createIRI(NAMESPACE, "vernacular");
    static final IRI HISTORICAL = VALUES.createIRI(NAMESPACE, "historical");

    static final Map<String, IRI> LABELS = Map.of("Preferred", SKOS.PREF_LABEL, "Alternative", SKOS.ALT_LABEL,
            "Hidden", SKOS.HIDDEN_LABEL);
    static final Map<String, IRI> XL_LABELS = Map.of("Preferred", SKOSXL.PREF_LABEL, "Alternative", SKOSXL.ALT_LABEL,
            "Hidden", SKOSXL.HIDDEN_LABEL);
    static final Map<String, IRI> NOTES = Map.of("Scope", SKOS.SCOPE_NOTE, "Definition", SKOS.DEFINITION,
            "Example", SKOS.EXAMPLE, "History", SKOS.HISTORY_NOTE, "Editorial", SKOS.EDITORIAL_NOTE, "Change", SKOS.CHANGE_NOTE);
    static final Map<String, IRI> MATCHES = Map.of("exactMatch", SKOS.EXACT_MATCH, "closeMatch", SKOS.CLOSE_MATCH,
            "broadMatch", SKOS.BROAD_MATCH, "narrowMatch", SKOS.NARROW_MATCH, "relatedMatch", SKOS.RELATED_MATCH);

    /** The formats served and accepted, by media type; the first is the default. */
    public static final List<RDFFormat> FORMATS = List.of(RDFFormat.TURTLE, RDFFormat.RDFXML, RDFFormat.JSONLD);

    private Skos() {
    }

    public static Optional<RDFFormat> format(String mediaType) {
        if (mediaType == null) {
            return Optional.empty();
        }
        String bare = mediaType.split(";")[0].trim().toLowerCase(Locale.ROOT);
        return FORMATS.stream().filter(f -> f.getMIMETypes().contains(bare)).findFirst();
    }

    /** The same tables read the other way, built once: an import looks up every statement's predicate. */
    static final Map<IRI, String> LABEL_TYPE_OF = inverse(LABELS);
    static final Map<IRI, String> XL_LABEL_TYPE_OF = inverse(XL_LABELS);
    static final Map<IRI, String> NOTE_TYPE_OF = inverse(NOTES);
    static final Map<IRI, String> MATCH_OF = inverse(MATCHES);

    private static Map<IRI, String> inverse(Map<String, IRI> map) {
        Map<IRI, String> inverse = new HashMap<>();
        map.forEach((key, iri) -> inverse.put(iri, key));
        return Map.copyOf(inverse);
    }
}
