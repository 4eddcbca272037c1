package org.ziggurat.vocab.schemes;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.directory.client.Namespace;
import org.ziggurat.directory.client.NamespaceDirectory;
import org.ziggurat.platform.permissions.NamespaceAccess;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Caller;
import org.ziggurat.platform.token.Callers;

import java.util.List;
import org.ziggurat.platform.token.ScopeNames;

/**
 * Concept schemes and who may do what with them: a scheme is read where its namespace is readable
 * to the caller (404 otherwise, as if it did not exist), created with the {@code write} scope and
 * changed or deleted with {@code update}, both with write rights in the namespace.
 */
@ApplicationScoped
public class SchemeService {

    private final Callers callers;
    private final NamespaceDirectory namespaces;
    private final SchemeRepository schemes;

    SchemeService(Callers callers, NamespaceDirectory namespaces, SchemeRepository schemes) {
        this.callers = callers;
        this.namespaces = namespaces;
        this.schemes = schemes;
    }

    /** The namespace, if the caller may read it (NamespaceAccess); 404 as if it did not exist otherwise. */
    public Uni<Namespace> readableNamespace(String namespace, Caller caller) {
        return namespaces.lookup(namespace, caller).invoke(ns -> NamespaceAccess.requireRead(namespace, ns.read(), ns.withheld()));
    }

    /** The namespace, if the caller has {@code scope} and write rights in it (NamespaceAccess). */
    public Uni<Namespace> writableNamespace(String namespace, Caller caller, String scope) {
        caller.requireUserWithScope(scope);
        return readableNamespace(namespace, caller).invoke(ns -> NamespaceAccess.requireWrite(ns.name(), ns.write(), ns.withheld()));
    }

    /** The scheme, if the current caller may read its namespace. */
    public Uni<SchemeRow> visible(String namespace, String slug) {
        return callers.current().chain(c -> readableNamespace(namespace, c))
                .chain(ns -> schemes.bySlug(ns.name(), slug))
                .onItem().ifNull().failWith(() -> notFound(slug));
    }

    /** The scheme, if the caller has {@code scope} and write rights in its namespace. */
    public Uni<SchemeRow> writable(String namespace, String slug, Caller caller, String scope) {
        return writableNamespace(namespace, caller, scope)
                .chain(ns -> schemes.bySlug(ns.name(), slug))
                .onItem().ifNull().failWith(() -> notFound(slug));
    }

    /** A page of the namespace's schemes, one more than asked to tell whether another follows. */
    public Uni<List<SchemeRow>> page(String namespace, Caller caller, int limitPlusOne, long offset) {
        return readableNamespace(namespace, caller).chain(ns -> schemes.page(ns.name(), limitPlusOne, offset));
    }

    public Uni<SchemeRow> create(String namespace, Caller caller, SchemeFields f) {
        return writableNamespace(namespace, caller, ScopeNames.WRITE).chain(ns -> schemes.insert(ns.name(), f.slug(),
                f.abbr() == null ? f.slug() : f.abbr(), f.title(), f.definition() == null ? "" : f.definition(),
                f.language() == null ? "eng" : f.language(), caller.requireUser(), caller.username().orElse("")));
    }

    public Uni<SchemeRow> update(String namespace, String slug, Caller caller, SchemeFields f) {
        return writable(namespace, slug, caller, ScopeNames.UPDATE)
                .chain(row -> schemes.update(row.id(), f.abbr(), f.title(), f.definition(), f.language()));
    }

    public Uni<Void> delete(String namespace, String slug, Caller caller) {
        return writable(namespace, slug, caller, ScopeNames.UPDATE).chain(row -> schemes.delete(row.id()));
    }

    public static ProblemException notFound(String slug) {
        return ProblemException.notFound("No scheme is called '" + slug + "'.");
    }
}
