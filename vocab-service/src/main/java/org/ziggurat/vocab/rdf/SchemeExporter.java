package org.ziggurat.vocab.rdf;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.ziggurat.platform.rest.http.PublicUrls;
import org.ziggurat.vocab.concepts.ConceptRepository;
import org.ziggurat.vocab.concepts.ConceptRow;
import org.ziggurat.vocab.schemes.SchemeExport;
import org.ziggurat.vocab.schemes.SchemeRow;

import java.io.OutputStream;
import java.time.Duration;
import java.util.List;

/** Streams a scheme as SKOS, reading its concepts a page at a time in id order. */
@ApplicationScoped
public class SchemeExporter implements SchemeExport {

    @Override
    public Optional<RDFFormat> format(String mediaType) {
        return Skos.format(mediaType);
    }


    static final int PAGE = 500;

    private final ConceptRepository concepts;

    SchemeExporter(ConceptRepository concepts) {
        this.concepts = concepts;
    }

    /** The export in a temporary file (blocks: call it on a worker thread). */
    @Override
    public Path writeToTemporaryFile(SchemeRow scheme, RDFFormat format, PublicUrls urls) {
        Path file = null;
        try {
            file = Files.createTempFile("scheme-export-", "." + format.getDefaultFileExtension());
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
                write(scheme, format, out, urls);
            }
            return file;
        } catch (IOException | RuntimeException e) {
            delete(file);
            throw e instanceof RuntimeException r ? r : new UncheckedIOException((IOException) e);
        }
    }

    @Override
    public void delete(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // the temporary directory is cleaned with the pod; nothing else to do
            }
        }
    }

    /** Blocks: write on a worker thread. */
    public void write(SchemeRow scheme, RDFFormat format, OutputStream out, PublicUrls urls) {
        SkosExport export = new SkosExport(format, out, scheme, urls);
        export.start();
        String after = null;
        while (true) {
            List<ConceptRow> rows = concepts.byId(scheme.id(), after, PAGE).await().atMost(Duration.ofMinutes(1));
            if (rows.isEmpty()) {
                break;
            }
            ConceptRepository.Details details = concepts.details(rows.stream().map(ConceptRow::id).toList())
                    .await().atMost(Duration.ofMinutes(1));
            export.concepts(rows, details);
            after = rows.get(rows.size() - 1).id();
            if (rows.size() < PAGE) {
                break;
            }
        }
        export.end();
    }
}
