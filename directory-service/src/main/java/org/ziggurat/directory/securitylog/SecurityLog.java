package org.ziggurat.directory.securitylog;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.directory.mail.SecurityNotices;
import org.ziggurat.platform.token.Callers;

/**
 * The account's security log, for what happens outside the directory's own changes: sign-ins,
 * failed attempts, applications given or refused access. A sign-in from a device the log has not
 * seen for this person (within its retention) mails a notice, in the same transaction as the
 * entry; a person's first sign-in ever is not "new".
 */
@ApplicationScoped
public class SecurityLog {

    private static final Logger LOG = Logger.getLogger(SecurityLog.class);

    /** An entry to record; {@code detail}: an application's name, where the kind has one. */
    public record Entry(String kind, String clientAddress, String userAgent, String detail) {
    }

    private final Callers callers;
    private final SecurityLogRepository repository;
    private final SecurityNotices notices;

    SecurityLog(Callers callers, SecurityLogRepository repository, SecurityNotices notices) {
        this.callers = callers;
        this.repository = repository;
        this.notices = notices;
    }

    /** The most a read of the log returns: everything kept, for a person who is not signing in all day. */
    public static final int MOST_READ = 1000;

    /** GET /user/security-log: the person, with the account scope; newest first. */
    public Uni<java.util.List<SecurityLogRepository.Logged>> entries(org.ziggurat.platform.token.Caller caller, int limit) {
        long personId = caller.requireUserWithScope(org.ziggurat.platform.token.ScopeNames.ACCOUNT);
        return repository.entries(personId, Math.max(1, Math.min(limit, MOST_READ)));
    }

    /** For another service only (auth-service's pages); false when no such person. */
    public Uni<Boolean> recordForService(long personId, Entry entry) {
        return callers.service().chain(service -> record(personId, entry));
    }

    /** Records the entry; false when no such person. */
    public Uni<Boolean> record(long personId, Entry entry) {
        String device = DeviceNames.device(entry.userAgent());
        String detail = entry.detail() == null ? null
                : entry.detail().length() > 200 ? entry.detail().substring(0, 200) : entry.detail();
        return repository.record(personId, entry.kind(), entry.clientAddress(), device, DeviceNames.key(device), detail,
                (recipient, seen) -> notices.newDevice(recipient.username(), entry.clientAddress(), seen));
    }

    /**
     * Records an entry without waiting for it: a failed password, whose entry must not make the
     * answer slower for an account that exists than for one that does not. A failure to record is
     * logged (the attempt itself was refused either way).
     */
    public void recordLater(long personId, Entry entry) {
        record(personId, entry).subscribe().with(recorded -> {
        }, failure -> LOG.warnf("security log entry %s for person %d not recorded: %s", entry.kind(), personId, failure));
    }
}
