package org.ziggurat.vocab.rdf;

import org.eclipse.rdf4j.model.BNode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.model.vocabulary.SKOS;
import org.eclipse.rdf4j.model.vocabulary.SKOSXL;
import org.eclipse.rdf4j.rio.helpers.AbstractRDFHandler;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads statements as they are parsed into one {@link Subject} per resource, so that memory
 * grows with what the platform keeps, not with the document's statements and their indexes.
 */
final class StatementCollector extends AbstractRDFHandler {

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
