package org.ziggurat.vocab.rdf;

import org.eclipse.rdf4j.model.BNode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.vocabulary.DCTERMS;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.model.vocabulary.SKOS;
import org.eclipse.rdf4j.model.vocabulary.SKOSXL;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFWriter;
import org.eclipse.rdf4j.rio.Rio;
import org.ziggurat.platform.rest.http.PublicUrls;
import org.ziggurat.vocab.Languages;
import org.ziggurat.vocab.concepts.ConceptInput;
import org.ziggurat.vocab.concepts.ConceptRepository;
import org.ziggurat.vocab.concepts.ConceptRow;
import org.ziggurat.vocab.schemes.SchemeRow;

import java.io.OutputStream;
import java.time.Instant;
import java.util.List;

/**
 * A scheme written as SKOS, concept by concept as they are read, so that a large vocabulary is
 * streamed rather than held (the JSON-LD writer alone gathers the document before it writes).
 */
public final class SkosExport {

    private final RDFWriter writer;
    private final SchemeRow scheme;
    private final PublicUrls urls;
    private final IRI schemeIri;
    private final String conceptBase;

    public SkosExport(RDFFormat format, OutputStream out, SchemeRow scheme, PublicUrls urls) {
        this.writer = Rio.createWriter(format, out);
        this.scheme = scheme;
        this.urls = urls;
        String path = "/" + scheme.namespace() + "/vocab/schemes/" + scheme.slug();
        this.schemeIri = Skos.VALUES.createIRI(urls.api(path));
        this.conceptBase = urls.api(path + "/concepts/");
    }

    public void start() {
        writer.startRDF();
        writer.handleNamespace("skos", SKOS.NAMESPACE);
        writer.handleNamespace("skosxl", SKOSXL.NAMESPACE);
        writer.handleNamespace("dct", DCTERMS.NAMESPACE);
        writer.handleNamespace("zv", Skos.NAMESPACE);
        writer.handleNamespace("c", conceptBase);
        say(schemeIri, RDF.TYPE, SKOS.CONCEPT_SCHEME);
        say(schemeIri, DCTERMS.TITLE, text(scheme.title(), scheme.defaultLanguage()));
        say(schemeIri, SKOS.NOTATION, Skos.VALUES.createLiteral(scheme.abbr()));
        if (!scheme.definition().isEmpty()) {
            say(schemeIri, SKOS.DEFINITION, text(scheme.definition(), scheme.defaultLanguage()));
        }
        say(schemeIri, DCTERMS.LANGUAGE, Skos.VALUES.createLiteral(Languages.tag(scheme.defaultLanguage())));
        say(schemeIri, DCTERMS.CREATOR, person(scheme.creatorUsername()));
        say(schemeIri, DCTERMS.CREATED, instant(scheme.createdAt()));
        say(schemeIri, DCTERMS.MODIFIED, instant(scheme.updatedAt()));
    }

    public void concepts(List<ConceptRow> rows, ConceptRepository.Details d) {
        for (ConceptRow row : rows) {
            IRI concept = concept(row.id());
            say(concept, RDF.TYPE, SKOS.CONCEPT);
            say(concept, SKOS.IN_SCHEME, schemeIri);
            say(concept, Skos.STATUS, Skos.VALUES.createLiteral(row.status()));
            for (ConceptInput.Label l : d.labels().getOrDefault(row.id(), List.of())) {
                var literal = text(l.body(), l.language());
                say(concept, Skos.LABELS.get(l.type()), literal);
                if (l.abbreviation() || !l.vernacular().equals("Undetermined") || !l.historical().equals("Unknown")) {
                    BNode xl = Skos.VALUES.createBNode();
                    say(concept, Skos.XL_LABELS.get(l.type()), xl);
                    say(xl, RDF.TYPE, SKOSXL.LABEL);
                    say(xl, SKOSXL.LITERAL_FORM, literal);
                    say(xl, Skos.ABBREVIATION, Skos.VALUES.createLiteral(l.abbreviation()));
                    say(xl, Skos.VERNACULAR, Skos.VALUES.createLiteral(l.vernacular()));
                    say(xl, Skos.HISTORICAL, Skos.VALUES.createLiteral(l.historical()));
                }
            }
            for (ConceptInput.Note n : d.notes().getOrDefault(row.id(), List.of())) {
                say(concept, Skos.NOTES.get(n.type()), text(n.body(), n.language()));
            }
            List<String> broader = d.broader().getOrDefault(row.id(), List.of());
            for (String b : broader) {
                say(concept, SKOS.BROADER, concept(b));
            }
            if (broader.isEmpty()) {
                say(concept, SKOS.TOP_CONCEPT_OF, schemeIri);
            }
            for (String n : d.narrower().getOrDefault(row.id(), List.of())) {
                say(concept, SKOS.NARROWER, concept(n));
            }
            for (ConceptInput.Match m : d.matches().getOrDefault(row.id(), List.of())) {
                say(concept, Skos.MATCHES.get(m.property()), Skos.VALUES.createIRI(m.url()));
            }
            say(concept, DCTERMS.CREATOR, person(row.creatorUsername()));
            for (String contributor : row.contributors()) {
                say(concept, DCTERMS.CONTRIBUTOR, person(contributor));
            }
            say(concept, DCTERMS.CREATED, instant(row.createdAt()));
            say(concept, DCTERMS.MODIFIED, instant(row.updatedAt()));
        }
    }

    public void end() {
        writer.endRDF();
    }

    private IRI concept(String id) {
        return Skos.VALUES.createIRI(conceptBase + id);
    }

    private IRI person(String username) {
        return Skos.VALUES.createIRI(urls.web("/" + username));
    }

    private static Value text(String body, String language) {
        return Skos.VALUES.createLiteral(body, Languages.tag(language));
    }

    private static Value instant(Instant at) {
        return Skos.VALUES.createLiteral(at.toString(), XSD.DATETIME);
    }

    private void say(Resource subject, IRI predicate, Value object) {
        writer.handleStatement(Skos.VALUES.createStatement(subject, predicate, object));
    }
}
