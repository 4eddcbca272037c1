package org.ziggurat.vocab.rdf;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.impl.LinkedHashModel;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.model.vocabulary.SKOS;
import org.eclipse.rdf4j.model.vocabulary.SKOSXL;
import org.eclipse.rdf4j.rio.ParserConfig;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFParseException;
import org.eclipse.rdf4j.rio.RDFParser;
import org.eclipse.rdf4j.rio.Rio;
import org.eclipse.rdf4j.rio.helpers.StatementCollector;
import org.eclipse.rdf4j.rio.helpers.XMLParserSettings;
import org.eclipse.rdf4j.rio.jsonld.JSONLDSettings;
import org.ziggurat.platform.problem.Problem;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.vocab.Languages;
import org.ziggurat.vocab.concepts.ConceptInput;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The concepts of a SKOS document (every resource typed {@code skos:Concept}), each checked by
 * the same rules as a posted concept. Broader links are kept as IRIs: they may name concepts of
 * the document or concepts already in the scheme, which only the importer can tell.
 */
public final class SkosDocument {

    /** A concept as the document states it; {@code input.broader()} is empty, {@code broader} holds IRIs. */
    public record Concept(String iri, ConceptInput input, List<String> broader) {
    }

    /** What a document says, or why it cannot be imported ({@code errors}), and what was left aside. */
    public record Result(List<Concept> concepts, List<Problem.FieldError> errors, List<String> warnings) {
    }

    static final int MAX_ERRORS = 100;

    private SkosDocument() {
    }

    public static Result read(byte[] document, RDFFormat format, String defaultLanguage, ObjectMapper mapper) {
        Model model = new LinkedHashModel();
        RDFParser parser = Rio.createParser(format);
        ParserConfig config = new ParserConfig();
        // Nothing outside the document is fetched: no DTDs or external entities, no remote JSON-LD contexts.
        config.set(XMLParserSettings.DISALLOW_DOCTYPE_DECL, true);
        config.set(XMLParserSettings.LOAD_EXTERNAL_DTD, false);
        config.set(XMLParserSettings.EXTERNAL_GENERAL_ENTITIES, false);
        config.set(XMLParserSettings.EXTERNAL_PARAMETER_ENTITIES, false);
        config.set(XMLParserSettings.SECURE_PROCESSING, true);
        config.set(JSONLDSettings.SECURE_MODE, true);
        config.set(JSONLDSettings.WHITELIST, Set.of());
        parser.setParserConfig(config);
        parser.setRDFHandler(new StatementCollector(model));
        try {
            parser.parse(new ByteArrayInputStream(document), "urn:ziggurat:import:");
        } catch (RDFParseException e) {
            String where = e.getLineNumber() > 0 ? " (line " + e.getLineNumber() + ")" : "";
            throw ProblemException.invalidField("document", "is not valid " + format.getName() + where + ": "
                    + firstLine(e.getMessage()));
        } catch (RuntimeException | java.io.IOException e) {
            throw ProblemException.invalidField("document", "is not valid " + format.getName() + ": " + firstLine(e.getMessage()));
        }
        List<Concept> concepts = new ArrayList<>();
        List<Problem.FieldError> errors = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (Resource subject : model.filter(null, RDF.TYPE, SKOS.CONCEPT).subjects()) {
            if (!(subject instanceof IRI iri)) {
                if (warnings.size() < MAX_ERRORS) {
                    warnings.add("A concept without an IRI (a blank node) was left aside.");
                }
                continue;
            }
            ObjectNode body = mapper.createObjectNode();
            model.filter(iri, Skos.STATUS, null).objects().stream().findFirst()
                    .ifPresent(status -> body.put("status", status.stringValue()));
            body.set("labels", labels(model, iri, defaultLanguage, mapper));
            ArrayNode notes = body.putArray("notes");
            for (Statement st : model.filter(iri, null, null)) {
                String type = Skos.keyOf(Skos.NOTES, st.getPredicate());
                if (type != null && st.getObject() instanceof Literal text) {
                    notes.addObject().put("type", type).put("body", text.getLabel())
                            .put("language", language(text, defaultLanguage));
                }
            }
            ArrayNode matches = body.putArray("matches");
            for (Statement st : model.filter(iri, null, null)) {
                String property = Skos.keyOf(Skos.MATCHES, st.getPredicate());
                if (property != null) {
                    matches.addObject().put("property", property).put("url", st.getObject().stringValue());
                }
            }
            List<String> broader = new ArrayList<>();
            model.filter(iri, SKOS.BROADER, null).objects().forEach(b -> broader.add(b.stringValue()));
            // Narrower is broader read the other way: a document may state either side.
            model.filter(null, SKOS.NARROWER, iri).subjects().forEach(b -> {
                if (!broader.contains(b.stringValue())) {
                    broader.add(b.stringValue());
                }
            });
            try {
                concepts.add(new Concept(iri.stringValue(), ConceptInput.parse(body), broader));
            } catch (ProblemException e) {
                for (Problem.FieldError error : e.errors()) {
                    if (errors.size() < MAX_ERRORS) {
                        errors.add(new Problem.FieldError(iri.stringValue() + " " + error.field(), error.message()));
                    }
                }
            }
        }
        if (concepts.isEmpty() && errors.isEmpty()) {
            errors.add(new Problem.FieldError("document", "holds no skos:Concept"));
        }
        return new Result(concepts, errors, warnings);
    }

    /**
     * SKOS labels, with the attributes of the SKOS-XL label of the same type, text and language
     * where the document has one; an XL label alone counts as a label too.
     */
    private static ArrayNode labels(Model model, IRI concept, String defaultLanguage, ObjectMapper mapper) {
        Map<String, ObjectNode> byKey = new LinkedHashMap<>();
        for (Statement st : model.filter(concept, null, null)) {
            String type = Skos.keyOf(Skos.LABELS, st.getPredicate());
            if (type != null && st.getObject() instanceof Literal text) {
                label(byKey, type, text, defaultLanguage, mapper);
            }
        }
        for (Statement st : model.filter(concept, null, null)) {
            String type = Skos.keyOf(Skos.XL_LABELS, st.getPredicate());
            if (type == null || !(st.getObject() instanceof Resource xl)) {
                continue;
            }
            Value form = model.filter(xl, SKOSXL.LITERAL_FORM, null).objects().stream().findFirst().orElse(null);
            if (form instanceof Literal text) {
                ObjectNode label = label(byKey, type, text, defaultLanguage, mapper);
                model.filter(xl, Skos.ABBREVIATION, null).objects().stream().findFirst()
                        .ifPresent(v -> label.put("abbreviation", Boolean.parseBoolean(v.stringValue())));
                model.filter(xl, Skos.VERNACULAR, null).objects().stream().findFirst()
                        .ifPresent(v -> label.put("vernacular", v.stringValue()));
                model.filter(xl, Skos.HISTORICAL, null).objects().stream().findFirst()
                        .ifPresent(v -> label.put("historical", v.stringValue()));
            }
        }
        ArrayNode labels = mapper.createArrayNode();
        byKey.values().forEach(labels::add);
        return labels;
    }

    private static ObjectNode label(Map<String, ObjectNode> byKey, String type, Literal text, String defaultLanguage,
            ObjectMapper mapper) {
        String language = language(text, defaultLanguage);
        return byKey.computeIfAbsent(type + "\u0000" + language + "\u0000" + text.getLabel(), k -> mapper.createObjectNode()
                .put("type", type).put("body", text.getLabel()).put("language", language));
    }

    /** A literal without a language tag is in the scheme's default language; an unknown tag is passed on to be refused. */
    private static String language(Literal text, String defaultLanguage) {
        return text.getLanguage().map(tag -> Languages.fromTag(tag).orElse(tag)).orElse(defaultLanguage);
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        String line = message.lines().findFirst().orElse(message);
        return line.length() > 300 ? line.substring(0, 300) + "…" : line;
    }
}
