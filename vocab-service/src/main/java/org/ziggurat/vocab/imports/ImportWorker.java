package org.ziggurat.vocab.imports;

import java.util.ArrayList;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.platform.problem.Problem;
import org.ziggurat.platform.data.InvalidReference;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.vocab.rdf.Skos;
import org.ziggurat.vocab.rdf.SkosDocument;
import org.ziggurat.vocab.schemes.SchemeRepository;
import org.ziggurat.vocab.schemes.SchemeRow;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Carries out import jobs, one at a time per replica, oldest first. A job is claimed in the
 * database (so replicas never run the same one) and beats while it runs; a job whose replica
 * stopped beating is claimed again, and since an import is one transaction, running it again is
 * safe. New jobs are started at once; the schedule picks up the rest.
 */
@ApplicationScoped
public class ImportWorker {

    private static final Logger LOG = Logger.getLogger(ImportWorker.class);

    private final ImportJobRepository jobs;
    private final ConceptImportRepository importer;
    private final SchemeRepository schemes;
    private final ObjectMapper mapper;

    ImportWorker(ImportJobRepository jobs, ConceptImportRepository importer, SchemeRepository schemes, ObjectMapper mapper) {
        this.jobs = jobs;
        this.importer = importer;
        this.schemes = schemes;
        this.mapper = mapper;
    }

    static final int MAX_WARNINGS = 100;
    /** Imports of at least this many concepts refresh the planner's statistics of the tables they wrote. */
    static final int ANALYZE_THRESHOLD = 1000;
    static final int MAX_ATTEMPTS = 3;

    private final AtomicBoolean busy = new AtomicBoolean();

    /** Starts draining the queue on a worker thread, unless this replica is at it already. */
    public void wake() {
        Infrastructure.getDefaultWorkerPool().execute(this::drain);
    }

    @Scheduled(every = "${ziggurat.vocab.imports.poll:5s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void drain() {
        if (!busy.compareAndSet(false, true)) {
            return;
        }
        try {
            ImportJobRepository.Claimed job;
            while ((job = jobs.claim().await().atMost(Duration.ofSeconds(30))) != null) {
                run(job);
            }
        } catch (RuntimeException e) {
            LOG.warnf("Import jobs could not be claimed now (%s); the schedule will try again.", e.getMessage());
        } finally {
            busy.set(false);
        }
    }

    private void run(ImportJobRepository.Claimed job) {
        SkosDocument.Result parsed = null;
        try {
            if (job.attempts() > MAX_ATTEMPTS) {
                jobs.failed(job.id(), job.attempts(), List.of(new Problem.FieldError("document", "the import stopped " + MAX_ATTEMPTS
                        + " times without finishing; nothing of it was kept")), List.of()).await().atMost(Duration.ofSeconds(30));
                return;
            }
            SchemeRow scheme = scheme(job.schemeId());
            if (scheme == null) {
                return; // the scheme was deleted, and its jobs with it
            }
            parsed = SkosDocument.read(job.document(), Skos.format(job.format()).orElseThrow(), scheme.defaultLanguage(),
                    mapper);
            if (!parsed.errors().isEmpty()) {
                jobs.failed(job.id(), job.attempts(), parsed.errors(), parsed.warnings()).await().atMost(Duration.ofSeconds(30));
                return;
            }
            int total = parsed.concepts().size();
            jobs.progress(job.id(), job.attempts(), total, 0).await().atMost(Duration.ofSeconds(30));
            List<String> warnings = new ArrayList<>(parsed.warnings());
            ConceptImportRepository.Outcome outcome = importer.write(scheme, parsed.concepts(), job.requesterId(), job.requesterUsername(),
                    done -> jobs.progress(job.id(), job.attempts(), total, done),
                    (conn, done) -> {
                        warnings.addAll(done.warnings());
                        // In the import's transaction, so the job reads as done only with them in place.
                        Uni<Void> statistics = total < ANALYZE_THRESHOLD ? Uni.createFrom().voidItem()
                                : importer.refreshStatistics(conn);
                        return statistics.chain(() -> jobs.succeeded(conn, job.id(), job.attempts(), total,
                                done.created(), done.replaced(), warnings.subList(0, Math.min(warnings.size(), MAX_WARNINGS))));
                    }).await().atMost(Duration.ofMinutes(30));
            LOG.infof("Import %d into scheme %d: %d concepts created, %d replaced", job.id(), job.schemeId(),
                    outcome.created(), outcome.replaced());
        } catch (ProblemException e) {
            List<Problem.FieldError> errors = e.errors().isEmpty()
                    ? List.of(new Problem.FieldError("document", e.detail())) : e.errors();
            jobs.failed(job.id(), job.attempts(), errors, parsed == null ? List.of() : parsed.warnings()).await().atMost(Duration.ofSeconds(30));
        } catch (InvalidReference e) {
            jobs.failed(job.id(), job.attempts(), List.of(new Problem.FieldError(e.field(), e.getMessage())),
                    parsed == null ? List.of() : parsed.warnings()).await().atMost(Duration.ofSeconds(30));
        } catch (RuntimeException e) {
            // Not the document's fault (the database went away, say): the job stays claimed and,
            // once its heartbeat is stale, is claimed and run again.
            LOG.errorf(e, "Import %d stopped; it will be tried again", job.id());
        }
    }

    private SchemeRow scheme(long id) {
        return schemes.byId(id).await().atMost(Duration.ofSeconds(30));
    }
}
