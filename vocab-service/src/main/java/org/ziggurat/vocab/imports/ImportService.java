package org.ziggurat.vocab.imports;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Caller;
import org.ziggurat.vocab.schemes.SchemeRepository;
import org.ziggurat.vocab.schemes.SchemeRow;
import org.ziggurat.vocab.schemes.SchemeService;
import org.ziggurat.platform.token.ScopeNames;

/**
 * Accepting a SKOS import as a job and reading its progress. An import creates concepts and may
 * replace them: it needs both the {@code write} and the {@code update} scope, and write rights in
 * the namespace; so does reading its job, which may name the document's errors.
 */
@ApplicationScoped
public class ImportService {

    /** A job with the scheme it imports into. */
    public record JobOfScheme(ImportJob job, SchemeRow scheme) {
    }

    private final SchemeService schemeService;
    private final SchemeRepository schemes;
    private final ImportJobRepository jobs;
    private final ImportWorker worker;

    ImportService(SchemeService schemeService, SchemeRepository schemes,
            ImportJobRepository jobs, ImportWorker worker) {
        this.schemeService = schemeService;
        this.schemes = schemes;
        this.jobs = jobs;
        this.worker = worker;
    }

    /** The job, stored before the answer; a worker of any replica then takes it. */
    public Uni<JobOfScheme> accept(String namespace, String slug, Caller caller, String format, byte[] document) {
        caller.requireUserWithScope(ScopeNames.UPDATE);
        return schemeService.writable(namespace, slug, caller, ScopeNames.WRITE)
                .chain(scheme -> jobs.create(scheme.id(), format, document, caller.requireUser(),
                        caller.username().orElse("")).map(job -> new JobOfScheme(job, scheme)))
                .invoke(worker::wake);
    }

    public Uni<JobOfScheme> get(String namespace, long id, Caller caller) {
        return schemeService.writableNamespace(namespace, caller, ScopeNames.WRITE)
                .chain(ns -> jobs.inNamespace(ns.name(), id))
                .onItem().ifNull().failWith(() -> ProblemException.notFound("No import has the id " + id + "."))
                .chain(job -> schemes.byId(job.schemeId()).map(s -> new JobOfScheme(job, s)));
    }
}
