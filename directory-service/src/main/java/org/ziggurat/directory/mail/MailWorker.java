package org.ziggurat.directory.mail;

import io.quarkus.mailer.Mail;
import io.quarkus.mailer.reactive.ReactiveMailer;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Duration;

/**
 * Sends the outbox, on every replica: each claims what is due ({@link MailOutboxRepository#claim}),
 * sends it through SMTP (quarkus-mailer), and records it sent; a failure is tried again later, the
 * wait doubling. A mail is sent once unless a replica stops between the SMTP server's acceptance
 * and the record of it (then it is sent again after its lease: at least once, never lost).
 */
@ApplicationScoped
public class MailWorker {

    private static final Logger LOG = Logger.getLogger("org.ziggurat.directory.mail");

    private final MailOutboxRepository outbox;
    private final ReactiveMailer mailer;
    private final MailSettings settings;

    MailWorker(MailOutboxRepository outbox, ReactiveMailer mailer, MailSettings settings) {
        this.outbox = outbox;
        this.mailer = mailer;
        this.settings = settings;
    }

    @Scheduled(every = "${ziggurat.mail.poll:2s}", delayed = "1s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> sendDue() {
        return sendBatch().replaceWithVoid()
                // A database away now is the next round's problem; nothing was claimed, or the lease returns it.
                .onFailure().invoke(e -> LOG.warnf("event=mail_outbox_unavailable error=%s", e.toString()))
                .onFailure().recoverWithNull();
    }

    /** One round: what was due when it started, sent one after another; how many were sent. */
    public Uni<Integer> sendBatch() {
        return outbox.claim(settings.batch(), settings.lease())
                .onItem().transformToMulti(claimed -> Multi.createFrom().iterable(claimed))
                .onItem().transformToUniAndConcatenate(this::send)
                .collect().asList()
                .map(results -> (int) results.stream().filter(Boolean::booleanValue).count());
    }

    private Uni<Boolean> send(MailOutboxRepository.Claimed mail) {
        return mailer.send(Mail.withText(mail.recipient(), mail.subject(), mail.body()))
                // Given up well within the lease: a stuck exchange must not let another replica send it too.
                .ifNoItem().after(settings.lease().dividedBy(2)).fail()
                .chain(() -> outbox.sent(mail.id()))
                .invoke(() -> LOG.infof("event=mail_sent kind=%s mail_id=%d attempts=%d", mail.kind(), mail.id(),
                        mail.attempts()))
                .replaceWith(true)
                .onFailure().recoverWithUni(e -> {
                    Duration wait = retryAfter(mail.attempts(), settings.firstRetry(), settings.longestRetry());
                    LOG.warnf("event=mail_failed kind=%s mail_id=%d attempts=%d retry_in=%ds error=%s", mail.kind(),
                            mail.id(), mail.attempts(), wait.toSeconds(), e.toString());
                    return outbox.failed(mail.id(), String.valueOf(e.getMessage()), wait).replaceWith(false);
                });
    }

    /** After the {@code attempts}-th failure: the first wait, doubled each time, never past the longest. */
    public static Duration retryAfter(int attempts, Duration first, Duration longest) {
        return org.ziggurat.platform.time.Backoff.doubling(attempts, first, longest);
    }

    @Scheduled(every = "1h", delayed = "5m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> purge() {
        return outbox.purgeSent(settings.keepSent()).replaceWithVoid()
                .onFailure().recoverWithNull();
    }
}
