package org.ziggurat.vocab.imports;

import java.util.ArrayList;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;
import org.ziggurat.platform.problem.Problem;
import org.ziggurat.platform.data.InvalidReference;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.rest.queue.QueueRepository;
import org.ziggurat.platform.rest.queue.QueueSettings;
import org.ziggurat.platform.rest.queue.QueueWorker;
import org.ziggurat.platform.rest.queue.Queues;
import org.ziggurat.vocab.VocabConfig;
import org.ziggurat.vocab.rdf.Skos;
import org.ziggurat.vocab.rdf.SkosDocument;
import org.ziggurat.vocab.schemes.SchemeRepository;
import org.ziggurat.vocab.schemes.SchemeRow;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Carries out import jobs, one at a time per replica, oldest first, on a worker thread. The queue
 * ({@link ImportJobRepository#JOBS}) claims a job (so replicas never run the same one) with a
 * lease that the replica renews every third of it while the import runs, whatever its steps take
 * (a batch that waits on a lock, a slow commit, the statistics at the end); a job whose replica
 * stopped renewing (it is gone) is claimed again, and since an import is one transaction, running
 * it again is safe. A new job wakes the
 * workers of every replica at once; polling picks up the rest.
 */
@ApplicationScoped
public class ImportWorker {

    private static final Logger LOG = Logger.getLogger(ImportWorker.class);

    private final ImportJobRepository jobs;
    private final ConceptImportRepository importer;
    private final SchemeRepository schemes;
    private final ObjectMapper mapper;
    private final Duration lease;
    private final QueueWorker worker;

    ImportWorker(Queues queues, ImportJobRepository jobs, ConceptImportRepository importer, SchemeRepository schemes,
            ObjectMapper mapper, VocabConfig config) {
        this.jobs = jobs;
        this.importer = importer;
        this.schemes = schemes;
        this.mapper = mapper;
        this.lease = config.imports().staleAfter();
        // No backoff: a job fails for good on its document, or waits for its lease when its run stopped.
        this.worker = queues.worker(ImportJobRepository.JOBS, new QueueSettings(config.imports().poll(), lease, 1, 1, lease,
                lease, Optional.empty()), job -> Uni.createFrom().item(() -> run(job))
                        .runSubscriptionOn(Infrastructure.getDefaultWorkerPool()));
    }

    static final int MAX_WARNINGS = 100;
    /** Imports of at least this many concepts refresh the planner's statistics of the tables they wrote. */
    static final int ANALYZE_THRESHOLD = 1000;
    static final int MAX_ATTEMPTS = 3;

    void start(@Observes StartupEvent started) {
        worker.start();
    }

    /** Claims now on this replica (the job just accepted), unless it is at it already. */
    public void wake() {
        worker.wake();
    }

    /** The job's run, recorded by the import itself (or left to its lease); whether it ended. */
    private QueueWorker.Outcome run(QueueRepository.Claimed claimed) {
        Cancellable beats = beatWhileRunning(claimed);
        try {
            return runClaimed(claimed);
        } finally {
            beats.cancel();
        }
    }

    /**
     * The lease renewed on a timer, not between batches: beats that waited for the import's next
     * batch made a live replica that was merely slow (a busy machine, a lock) lose its job to
     * another claim, and three such losses failed the import. A renewal that fails (the database
     * is away) is only logged: the next one tries again, and the lease decides if none gets through.
     */
    private Cancellable beatWhileRunning(QueueRepository.Claimed claimed) {
        return Multi.createFrom().ticks().every(lease.dividedBy(3)).onOverflow().drop()
                .onItem().transformToUniAndConcatenate(tick -> worker.queue().extend(claimed, lease)
                        .onFailure().recoverWithItem(failure -> {
                            LOG.warnf("Import %d: its lease was not renewed (%s); trying again", claimed.id(), failure.toString());
                            return true;
                        }))
                // Once another claim holds the job, beating on would only repeat an UPDATE that matches nothing.
                .select().where(held -> !held).select().first()
                .subscribe().with(lost -> LOG.warnf("Import %d: another claim has taken it over; this run's result will not be kept",
                        claimed.id()));
    }

    private QueueWorker.Outcome runClaimed(QueueRepository.Claimed claimed) {
        ImportJobRepository.Claimed job = ImportJobRepository.Claimed.from(claimed);
        SkosDocument.Result parsed = null;
        try {
            if (job.attempts() > MAX_ATTEMPTS) {
                jobs.failed(job.id(), job.attempts(), List.of(new Problem.FieldError("document", "the import stopped " + MAX_ATTEMPTS
                        + " times without finishing; nothing of it was kept")), List.of()).await().atMost(Duration.ofSeconds(30));
                return QueueWorker.Outcome.recorded(true);
            }
            SchemeRow scheme = scheme(job.schemeId());
            if (scheme == null) {
                return QueueWorker.Outcome.recorded(true); // the scheme was deleted, and its jobs with it
            }
            parsed = SkosDocument.read(job.document(), Skos.format(job.format()).orElseThrow(), scheme.defaultLanguage(),
                    mapper);
            if (!parsed.errors().isEmpty()) {
                jobs.failed(job.id(), job.attempts(), parsed.errors(), parsed.warnings()).await().atMost(Duration.ofSeconds(30));
                return QueueWorker.Outcome.recorded(true);
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
            return QueueWorker.Outcome.recorded(true);
        } catch (ProblemException e) {
            List<Problem.FieldError> errors = e.errors().isEmpty()
                    ? List.of(new Problem.FieldError("document", e.detail())) : e.errors();
            jobs.failed(job.id(), job.attempts(), errors, parsed == null ? List.of() : parsed.warnings()).await().atMost(Duration.ofSeconds(30));
            return QueueWorker.Outcome.recorded(true);
        } catch (InvalidReference e) {
            jobs.failed(job.id(), job.attempts(), List.of(new Problem.FieldError(e.field(), e.getMessage())),
                    parsed == null ? List.of() : parsed.warnings()).await().atMost(Duration.ofSeconds(30));
            return QueueWorker.Outcome.recorded(true);
        } catch (RuntimeException e) {
            // Not the document's fault (the database went away, say): the job stays claimed and,
            // once its lease runs out, is claimed and run again.
            LOG.errorf(e, "Import %d stopped; it will be tried again", job.id());
            return QueueWorker.Outcome.recorded(false);
        }
    }

    private SchemeRow scheme(long id) {
        return schemes.byId(id).await().atMost(Duration.ofSeconds(30));
    }
}
