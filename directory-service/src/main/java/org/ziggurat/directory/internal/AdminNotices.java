package org.ziggurat.directory.internal;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;

import java.util.Set;

/**
 * Notices other services owe a namespace's admins, mailed through the outbox: only the services
 * that owe such notices may ask (events-service: one of a namespace's webhooks was disabled).
 */
@ApplicationScoped
public class AdminNotices {

    static final Set<String> NOTIFYING_SERVICES = Set.of("events-service");

    private final Callers callers;
    private final InternalRepository repository;

    AdminNotices(Callers callers, InternalRepository repository) {
        this.callers = callers;
        this.repository = repository;
    }

    /** How many mails were queued; 404 when no namespace has the name, 403 for another service. */
    public Uni<Long> queue(String namespace, String kind, String subject, String body) {
        return callers.service().chain(service -> {
            if (!NOTIFYING_SERVICES.contains(service)) {
                throw ProblemException.forbidden("This service sends no notices to admins.");
            }
            return repository.noticeAdmins(namespace, kind, subject, body);
        }).onItem().ifNull().failWith(() -> ProblemException.notFound("No namespace is called '" + namespace + "'."));
    }
}
