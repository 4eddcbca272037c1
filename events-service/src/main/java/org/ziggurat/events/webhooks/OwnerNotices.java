package org.ziggurat.events.webhooks;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;
import org.ziggurat.directory.client.DirectoryClient;
import org.ziggurat.platform.rest.queue.QueueRepository;
import org.ziggurat.platform.rest.queue.QueueSettings;
import org.ziggurat.platform.rest.queue.QueueTable;
import org.ziggurat.platform.rest.queue.QueueWorker;
import org.ziggurat.platform.rest.queue.Queues;

import java.time.Duration;
import java.util.Optional;

/**
 * Tells a namespace's admins that one of its webhooks was disabled (its deliveries failed, or its
 * creator lost their rights), by mail through
 * directory-service (which knows the admins and their addresses, and keeps the mail outbox). The
 * subscription's row is this notice's outbox: disabling sets {@code notice_due_at} in the same
 * transaction (which wakes the queue's workers); any replica claims it with a lease, asks the
 * directory, and clears it; a directory that is away is asked again later, after a doubling wait
 * of at most the lease. A namespace that no longer exists owes nothing.
 */
@ApplicationScoped
public class OwnerNotices {

    /** A notice is owed while its due time is set; its claims are counted apart (V7), and cleared with it. */
    static final QueueTable NOTICES = QueueTable.of("events_notices", "webhook_subscription", "q.notice_due_at IS NOT NULL")
            .due("notice_due_at").attempts("notice_attempts").error(null).done("notice_due_at = NULL, notice_attempts = 0")
            .build();

    private static final Logger LOG = Logger.getLogger("org.ziggurat.events.webhooks");
    private static final Duration LEASE = Duration.ofMinutes(5);

    record Owed(long id, String namespace, String repository, String targetUrl, String reason, String cause) {
    }

    private final DirectoryClient directory;
    private final QueueWorker worker;

    OwnerNotices(Queues queues, @RestClient DirectoryClient directory, WebhookSettings settings) {
        this.directory = directory;
        this.worker = queues.worker(NOTICES, new QueueSettings(settings.noticePoll(), LEASE, 20, 1, settings.noticePoll(), LEASE,
                Optional.empty()), this::tell);
    }

    /**
     * The mail: why it was disabled, and what to do. A webhook whose creator lost their rights goes
     * to the admins who remain, who decide whether it should send on (and then answer for it).
     */
    static DirectoryClient.AdminNotice notice(Owed owed) {
        String place = owed.repository() == null ? "the namespace " + owed.namespace()
                : "the repository " + owed.namespace() + "/" + owed.repository();
        String what = "The webhook " + owed.id() + " of " + place + ", which sends events to " + owed.targetUrl()
                + ", was disabled: " + owed.reason() + "\n\n";
        if (WebhookSubscription.CREATOR.equals(owed.cause())) {
            return new DirectoryClient.AdminNotice("webhook_creator_left",
                    "A webhook of " + owed.namespace() + " stopped: the rights it was made with are gone",
                    what + "Nothing is sent to it until one of you makes it active again (PATCH its \"active\" to true), "
                            + "and whoever does answers for it from then on; events recorded meanwhile are kept. If nobody "
                            + "here should receive them, delete it.\n");
        }
        return new DirectoryClient.AdminNotice("webhook_disabled", "A webhook of " + owed.namespace() + " was disabled",
                what + "Events recorded meanwhile are kept. When the receiver "
                        + "is back, activate the webhook again (PATCH its \"active\" to true) and redeliver the failed "
                        + "deliveries (POST its redeliveries with a \"since\").\n");
    }

    void start(@Observes StartupEvent started) {
        worker.start();
    }

    /** One round; how many notices the directory took. */
    public Uni<Integer> send() {
        return worker.round();
    }

    private Uni<QueueWorker.Outcome> tell(QueueRepository.Claimed claimed) {
        Row r = claimed.row();
        Owed owed = new Owed(claimed.id(), r.getString("namespace"), r.getString("repository"), r.getString("target_url"),
                r.getString("disabled_reason"), r.getString("disabled_cause"));
        return directory.noticeAdmins(owed.namespace(), notice(owed)).replaceWith(QueueWorker.Outcome.done())
                .onFailure(DirectoryClient.NotFound.class).recoverWithItem(QueueWorker.Outcome.done())
                .invoke(() -> LOG.infof("event=webhook_notice_sent subscription_id=%d namespace=%s", owed.id(), owed.namespace()))
                .onFailure().invoke(e -> LOG.warnf("event=webhook_notice_failed subscription_id=%d error=%s", owed.id(),
                        e.toString()));
    }
}
