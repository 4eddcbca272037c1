package org.ziggurat.vocab.rdf;

import java.io.IOException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.eclipse.rdf4j.rio.ParserConfig;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFParseException;
import org.eclipse.rdf4j.rio.RDFParser;
import org.eclipse.rdf4j.rio.Rio;
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
        StatementCollector collected = new StatementCollector();
        parser.setRDFHandler(collected);
        try {
            parser.parse(new ByteArrayInputStream(document), "urn:ziggurat:import:");
        } catch (RDFParseException e) {
            String where = e.getLineNumber() > 0 ? " (line " + e.getLineNumber() + ")" : "";
            throw ProblemException.invalidField("document", "is not valid " + format.getName() + where + ": "
                    + firstLine(e.getMessage()));
        } catch (RuntimeException | IOException e) {
            throw ProblemException.invalidField("document", "is not valid " + format.getName() + ": " + firstLine(e.getMessage()));
        }
        List<Concept> concepts = new ArrayList<>();
        List<Problem.FieldError> errors = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        if (collected.blankConcepts > 0) {
            warnings.add(collected.blankConcepts + " concepts without an IRI (blank nodes) were left aside.");
        }
        for (var it = collected.subjects.entrySet().iterator(); it.hasNext(); ) {
            var entry = it.next();
            StatementCollector.Subject subject = entry.getValue();
            if (!subject.concept) {
                continue;
            }
            String iri = entry.getKey();
            ObjectNode body = mapper.createObjectNode();
            if (subject.status != null) {
                body.put("status", subject.status);
            }
            body.set("labels", labels(subject, collected.subjects, defaultLanguage, mapper));
            ArrayNode notes = body.putArray("notes");
            for (StatementCollector.Text note : subject.notes) {
                notes.addObject().put("type", note.kind()).put("body", note.text()).put("language", language(note, defaultLanguage));
            }
            ArrayNode matches = body.putArray("matches");
            for (String[] match : subject.matches) {
                matches.addObject().put("property", match[0]).put("url", match[1]);
            }
            try {
                concepts.add(new Concept(iri, ConceptInput.parse(body), subject.broader));
            } catch (ProblemException e) {
                for (Problem.FieldError error : e.errors()) {
                    if (errors.size() < MAX_ERRORS) {
                        errors.add(new Problem.FieldError(iri + " " + error.field(), error.message()));
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
    private static ArrayNode labels(StatementCollector.Subject concept, Map<String, StatementCollector.Subject> subjects,
            String defaultLanguage, ObjectMapper mapper) {
        Map<String, ObjectNode> byKey = new LinkedHashMap<>();
        for (StatementCollector.Text text : concept.labels) {
            label(byKey, text.kind(), text, defaultLanguage, mapper);
        }
        for (String[] xl : concept.xl) {
            StatementCollector.Subject resource = subjects.get(xl[1]);
            if (resource == null || resource.literalForm == null) {
                continue;
            }
            ObjectNode label = label(byKey, xl[0], resource.literalForm, defaultLanguage, mapper);
            if (resource.abbreviation != null) {
                label.put("abbreviation", resource.abbreviation);
            }
            if (resource.vernacular != null) {
                label.put("vernacular", resource.vernacular);
            }
            if (resource.historical != null) {
                label.put("historical", resource.historical);
            }
        }
        ArrayNode labels = mapper.createArrayNode();
        byKey.values().forEach(labels::add);
        return labels;
    }

    private static ObjectNode label(Map<String, ObjectNode> byKey, String type, StatementCollector.Text text, String defaultLanguage,
            ObjectMapper mapper) {
        String language = language(text, defaultLanguage);
        return byKey.computeIfAbsent(type + "\u0000" + language + "\u0000" + text.text(), k -> mapper.createObjectNode()
                .put("type", type).put("body", text.text()).put("language", language));
    }

    /** A literal without a language tag is in the scheme's default language; an unknown tag is passed on to be refused. */
    private static String language(StatementCollector.Text text, String defaultLanguage) {
        return text.tag() == null ? defaultLanguage : Languages.fromTag(text.tag()).orElse(text.tag());
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        String line = message.lines().findFirst().orElse(message);
        return line.length() > 300 ? line.substring(0, 300) + "…" : line;
    }
}
