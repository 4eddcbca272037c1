package org.ziggurat.directory.factors;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.directory.mail.MailOutboxRepository;
import org.ziggurat.directory.mail.SecurityNotices;

/**
 * A change to how a person signs in, recorded in their security log and, for the kinds people are
 * told of ({@link SecurityNotices#mails}), its mail queued: in the caller's transaction, so a change
 * is never without its record and notice.
 */
@ApplicationScoped
public class AccountEventLog {

    private final SecurityNotices notices;

    AccountEventLog(SecurityNotices notices) {
        this.notices = notices;
    }

    /** {@code detail}: what the change names (a provider and the name there), or null. */
    public Uni<Void> record(long personId, String kind, String address, String detail) {
        Uni<Void> recorded = AccountEvent.of(personId, kind, address, detail).persist().replaceWithVoid();
        if (!notices.mails(kind)) {
            return recorded;
        }
        return recorded.chain(() -> Panache.getSession()).chain(session -> session.createNativeQuery(
                        "SELECT username FROM person WHERE id = ?1", String.class).setParameter(1, personId).getSingleResultOrNull())
                .chain(username -> {
                    if (username == null) {
                        return Uni.createFrom().voidItem();
                    }
                    SecurityNotices.Notice notice = notices.notice(kind, username, address, detail);
                    return MailOutboxRepository.enqueue(personId, kind, notice.subject(), notice.body());
                });
    }
}
