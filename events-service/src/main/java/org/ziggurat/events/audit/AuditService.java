package org.ziggurat.events.audit;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.events.Operators;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Caller;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The audit stream's rules: which services tell of changes (each under its own name, its token's
 * service), and who reads it (the operators).
 */
@ApplicationScoped
public class AuditService {

    /** The services whose security-relevant changes join the stream. */
    public static final Set<String> SOURCES = Set.of("auth-service", "directory-service");
    /** The categories an audit webhook may take: the first word of the types. */
    public static final List<String> CATEGORIES = List.of("account", "membership", "application", "authorization", "webhook",
            "identity_provider", "resource_server");
    static final Pattern TYPE = Pattern.compile("(" + String.join("|", CATEGORIES) + ")\\.[a-z_]{1,40}");
    /** An application's every setting (20 redirect URIs of up to 2,000 characters) fits; the sources never send more. */
    static final int MAX_DATA_CHARS = 65536;

    private final AuditRepository repository;
    private final Operators operators;
    private final AuditFollowUps followUps;

    AuditService(AuditRepository repository, Operators operators, AuditFollowUps followUps) {
        this.repository = repository;
        this.operators = operators;
        this.followUps = followUps;
    }

    /** An event a service tells of, as that service: 403 for any other caller, 422 for what is not one. */
    public Uni<Void> record(Caller caller, long sourceId, String type, String subject, Long actorId, JsonObject data,
            OffsetDateTime occurredAt) {
        String source = caller.requireService();
        if (!SOURCES.contains(source)) {
            throw ProblemException.forbidden("This service tells of no audit events.");
        }
        if (type == null || !TYPE.matcher(type).matches()) {
            throw ProblemException.invalidField("type", "must be a category (" + String.join(", ", CATEGORIES)
                    + "), a dot and a lower-case word");
        }
        if (subject == null || subject.isBlank() || subject.length() > 200) {
            throw ProblemException.invalidField("subject", "must be 1 to 200 characters");
        }
        if (data == null || data.encode().length() > MAX_DATA_CHARS) {
            throw ProblemException.invalidField("data", "must be an object of at most " + MAX_DATA_CHARS + " characters");
        }
        if (occurredAt == null) {
            throw ProblemException.invalidField("time", "is required (ISO 8601)");
        }
        // The follow-up also when the event was recorded before: an earlier telling may have failed after it.
        return repository.record(source, sourceId, type, subject, actorId, data, occurredAt)
                .chain(() -> followUps.told(source, type, data, occurredAt));
    }

    /** A page of the stream for an operator, oldest first after {@code afterId}. */
    public Uni<List<AuditRepository.AuditRow>> read(Caller caller, long afterId, String category, OffsetDateTime since,
            int limit) {
        operators.require(caller);
        return repository.after(afterId, category, since, limit);
    }
}
