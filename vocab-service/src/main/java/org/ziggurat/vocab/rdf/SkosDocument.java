package org.ziggurat.vocab.rdf;

import java.io.IOException;
import org.eclipse.rdf4j.model.BNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.model.vocabulary.SKOS;
import org.eclipse.rdf4j.model.vocabulary.SKOSXL;
import org.eclipse.rdf4j.rio.ParserConfig;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFParseException;
import org.eclipse.rdf4j.rio.RDFParser;
import org.eclipse.rdf4j.rio.Rio;
import org.eclipse.rdf4j.rio.helpers.AbstractRDFHandler;
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
        Collector collected = new Collector();
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
            Subject subject = entry.getValue();
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
            for (Text note : subject.notes) {
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

    /** A literal as kept while reading: what kind of label or note it is, its text and language tag. */
    record Text(String kind, String text, String tag) {
    }

    /** What the document says about one resource, kept small: a vocabulary may have a million labels. */
    static final class Subject {
        boolean concept;
        String status;
        final List<Text> labels = new ArrayList<>(4);
        final List<Text> notes = new ArrayList<>(1);
        final List<String[]> matches = new ArrayList<>(1);
        final List<String> broader = new ArrayList<>(1);
        /** SKOS-XL labels: kind and the blank node (or IRI) of the label resource. */
        final List<String[]> xl = new ArrayList<>(0);
        // When the resource is itself a SKOS-XL label:
        Text literalForm;
        Boolean abbreviation;
        String vernacular;
        String historical;
    }

    /**
     * Reads statements as they are parsed into one {@link Subject} per resource, so that memory
     * grows with what the platform keeps, not with the document's statements and their indexes.
     */
    static final class Collector extends AbstractRDFHandler {
        final Map<String, Subject> subjects = new LinkedHashMap<>();
        int blankConcepts;

        private Subject subject(Resource resource) {
            return subjects.computeIfAbsent(key(resource), k -> new Subject());
        }

        static String key(Value resource) {
            return resource instanceof BNode b ? "_:" + b.getID() : resource.stringValue();
        }

        @Override
        public void handleStatement(Statement st) {
            IRI p = st.getPredicate();
            Value o = st.getObject();
            if (p.equals(RDF.TYPE) && o.equals(SKOS.CONCEPT)) {
                if (st.getSubject() instanceof IRI) {
                    subject(st.getSubject()).concept = true;
                } else {
                    blankConcepts++;
                }
                return;
            }
            String kind;
            if ((kind = Skos.LABEL_TYPE_OF.get(p)) != null && o instanceof Literal text) {
                subject(st.getSubject()).labels.add(new Text(kind, text.getLabel(), text.getLanguage().orElse(null)));
            } else if ((kind = Skos.NOTE_TYPE_OF.get(p)) != null && o instanceof Literal text) {
                subject(st.getSubject()).notes.add(new Text(kind, text.getLabel(), text.getLanguage().orElse(null)));
            } else if ((kind = Skos.MATCH_OF.get(p)) != null) {
                subject(st.getSubject()).matches.add(new String[] {kind, o.stringValue()});
            } else if (p.equals(SKOS.BROADER) && o instanceof Resource b) {
                addBroader(subject(st.getSubject()), key(b));
            } else if (p.equals(SKOS.NARROWER) && o instanceof Resource n) {
                // Narrower is broader read the other way: a document may state either side.
                addBroader(subject(n), key(st.getSubject()));
            } else if ((kind = Skos.XL_LABEL_TYPE_OF.get(p)) != null && o instanceof Resource label) {
                subject(st.getSubject()).xl.add(new String[] {kind, key(label)});
            } else if (p.equals(SKOSXL.LITERAL_FORM) && o instanceof Literal text) {
                subject(st.getSubject()).literalForm = new Text(null, text.getLabel(), text.getLanguage().orElse(null));
            } else if (p.equals(Skos.STATUS)) {
                subject(st.getSubject()).status = o.stringValue();
            } else if (p.equals(Skos.ABBREVIATION)) {
                subject(st.getSubject()).abbreviation = Boolean.parseBoolean(o.stringValue());
            } else if (p.equals(Skos.VERNACULAR)) {
                subject(st.getSubject()).vernacular = o.stringValue();
            } else if (p.equals(Skos.HISTORICAL)) {
                subject(st.getSubject()).historical = o.stringValue();
            }
        }

        private static void addBroader(Subject subject, String broader) {
            if (!subject.broader.contains(broader)) {
                subject.broader.add(broader);
            }
        }
    }

    /**
     * SKOS labels, with the attributes of the SKOS-XL label of the same type, text and language
     * where the document has one; an XL label alone counts as a label too.
     */
    private static ArrayNode labels(Subject concept, Map<String, Subject> subjects, String defaultLanguage, ObjectMapper mapper) {
        Map<String, ObjectNode> byKey = new LinkedHashMap<>();
        for (Text text : concept.labels) {
            label(byKey, text.kind(), text, defaultLanguage, mapper);
        }
        for (String[] xl : concept.xl) {
            Subject resource = subjects.get(xl[1]);
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

    private static ObjectNode label(Map<String, ObjectNode> byKey, String type, Text text, String defaultLanguage,
            ObjectMapper mapper) {
        String language = language(text, defaultLanguage);
        return byKey.computeIfAbsent(type + "\u0000" + language + "\u0000" + text.text(), k -> mapper.createObjectNode()
                .put("type", type).put("body", text.text()).put("language", language));
    }

    /** A literal without a language tag is in the scheme's default language; an unknown tag is passed on to be refused. */
    private static String language(Text text, String defaultLanguage) {
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
