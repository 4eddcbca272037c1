package org.ziggurat.directory.mail;

import io.quarkus.mailer.Mail;
import io.quarkus.mailer.reactive.ReactiveMailer;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;
import org.ziggurat.platform.rest.queue.QueueRepository;
import org.ziggurat.platform.rest.queue.QueueSettings;
import org.ziggurat.platform.rest.queue.QueueTable;
import org.ziggurat.platform.rest.queue.QueueWorker;
import org.ziggurat.platform.rest.queue.Queues;
import org.ziggurat.platform.time.Backoff;

import java.time.Duration;
import java.util.Optional;

/**
 * Sends the outbox (V8) through SMTP (quarkus-mailer), on every replica, one mail after another: a
 * queue ({@link QueueWorker}) claims what is due, and records a mail sent, or failed and tried again
 * later. A mail is sent once unless a replica stops between the SMTP server's acceptance and the
 * record of it (then it is sent again after its lease: at least once, never lost).
 */
@ApplicationScoped
public class MailWorker {

    /** A mail is owed until it is sent; sent mail stays a while (for support: what was sent, when). */
    static final QueueTable OUTBOX = QueueTable.of("directory_mail", "mail_outbox", "q.sent_at IS NULL")
            .done("sent_at = now(), last_error = NULL").purgeable("q.sent_at < {cutoff}").build();

    private static final Logger LOG = Logger.getLogger("org.ziggurat.directory.mail");

    private final ReactiveMailer mailer;
    private final MailSettings settings;
    private final QueueWorker worker;

    MailWorker(Queues queues, ReactiveMailer mailer, MailSettings settings) {
        this.mailer = mailer;
        this.settings = settings;
        this.worker = queues.worker(OUTBOX, new QueueSettings(settings.poll(), settings.lease(), settings.batch(), 1,
                settings.firstRetry(), settings.longestRetry(), Optional.of(settings.keepSent())), this::send);
    }

    void start(@Observes StartupEvent started) {
        worker.start();
    }

    /** One round: what was due when it started, sent one after another; how many were sent. */
    public Uni<Integer> sendBatch() {
        return worker.round();
    }

    private Uni<QueueWorker.Outcome> send(QueueRepository.Claimed mail) {
        Row row = mail.row();
        return mailer.send(Mail.withText(row.getString("recipient"), row.getString("subject"), row.getString("body")))
                // Given up well within the lease: a stuck exchange must not let another replica send it too.
                .ifNoItem().after(settings.lease().dividedBy(2)).fail()
                .invoke(() -> LOG.infof("event=mail_sent kind=%s mail_id=%d attempts=%d", row.getString("kind"), mail.id(),
                        mail.attempts()))
                .replaceWith(QueueWorker.Outcome.done())
                .onFailure().invoke(e -> LOG.warnf("event=mail_failed kind=%s mail_id=%d attempts=%d error=%s",
                        row.getString("kind"), mail.id(), mail.attempts(), e.toString()));
    }

    /**
     * The longest wait after the {@code attempts}-th failure: the first wait, doubled each time,
     * never past the longest. The queue takes up to half of it off (jitter).
     */
    public static Duration retryAfter(int attempts, Duration first, Duration longest) {
        return Backoff.doubling(attempts, first, longest);
    }
}
