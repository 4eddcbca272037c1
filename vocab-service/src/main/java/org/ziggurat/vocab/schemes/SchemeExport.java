package org.ziggurat.vocab.schemes;

import org.eclipse.rdf4j.rio.RDFFormat;
import org.ziggurat.platform.rest.http.PublicUrls;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A scheme with all its concepts written as SKOS: what {@link SchemesResource} serves for the RDF
 * media types. Stated here and implemented where RDF is written ({@code rdf.SchemeExporter}), so
 * that schemes need nothing of the RDF package while the export reads schemes and concepts.
 */
public interface SchemeExport {

    /** The RDF format served for a media type; empty for JSON and anything else. */
    Optional<RDFFormat> format(String mediaType);

    /** The export in a temporary file, written as the concepts are read; {@link #delete} it once sent. */
    Path writeToTemporaryFile(SchemeRow scheme, RDFFormat format, PublicUrls urls);

    void delete(Path file);
}
