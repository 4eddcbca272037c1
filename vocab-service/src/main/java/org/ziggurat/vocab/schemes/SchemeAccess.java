package org.ziggurat.vocab.schemes;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.ziggurat.platform.namespaces.NamespaceRights;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;

/** A scheme as the caller may see it: its namespace readable to them, or 404. */
@ApplicationScoped
public class SchemeAccess {

    @Inject
    Callers callers;

    @Inject
    NamespaceRights rights;

    @Inject
    SchemeRepository schemes;

    public Uni<SchemeRow> visible(String namespace, String slug) {
        return callers.current().chain(c -> rights.forReading(namespace, c))
                .chain(ns -> schemes.bySlug(ns.name(), slug))
                .onItem().ifNull().failWith(() -> notFound(slug));
    }

    public static ProblemException notFound(String slug) {
        return ProblemException.notFound("No scheme is called '" + slug + "'.");
    }
}
