package org.ziggurat.events.webhooks;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;
import org.ziggurat.directory.client.DirectoryClient;

import java.util.ArrayList;
import java.util.List;

/**
 * Tells a namespace's admins that one of its webhooks was disabled (its deliveries failed, or its
 * creator lost their rights), by mail through
 * directory-service (which knows the admins and their addresses, and keeps the mail outbox). The
 * subscription's row is this notice's outbox: disabling sets {@code notice_due_at} in the same
 * transaction; any replica claims it with a lease, asks the directory, and clears it; a directory
 * that is away is asked again later. A namespace that no longer exists owes nothing.
 */
@ApplicationScoped
public class OwnerNotices {

    private static final Logger LOG = Logger.getLogger("org.ziggurat.events.webhooks");

    record Owed(long id, String namespace, String repository, String targetUrl, String reason, String cause) {
    }

    private final Pool pool;
    private final DirectoryClient directory;

    OwnerNotices(Pool pool, @RestClient DirectoryClient directory) {
        this.pool = pool;
        this.directory = directory;
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

    @Scheduled(every = "${ziggurat.events.webhooks.notice-poll:10s}", delayed = "2s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> sendDue() {
        return send().replaceWithVoid().onFailure().invoke(e -> LOG.warnf("event=webhook_notice_unavailable error=%s", e))
                .onFailure().recoverWithNull();
    }

    /** One round; how many notices the directory took. */
    public Uni<Integer> send() {
        return pool.preparedQuery("UPDATE webhook_subscription SET notice_due_at = now() + interval '5 minutes' "
                        + "WHERE id IN (SELECT id FROM webhook_subscription WHERE notice_due_at <= now() ORDER BY notice_due_at "
                        + "LIMIT 20 FOR UPDATE SKIP LOCKED) RETURNING id, namespace, repository, target_url, disabled_reason, disabled_cause")
                .execute().map(rows -> {
                    List<Owed> owed = new ArrayList<>();
                    for (Row r : rows) {
                        owed.add(new Owed(r.getLong("id"), r.getString("namespace"), r.getString("repository"),
                                r.getString("target_url"), r.getString("disabled_reason"), r.getString("disabled_cause")));
                    }
                    return owed;
                })
                .onItem().transformToMulti(owed -> Multi.createFrom().iterable(owed))
                .onItem().transformToUniAndConcatenate(this::tell)
                .collect().asList().map(told -> (int) told.stream().filter(Boolean::booleanValue).count());
    }

    private Uni<Boolean> tell(Owed owed) {
        DirectoryClient.AdminNotice notice = notice(owed);
        return directory.noticeAdmins(owed.namespace(), notice).replaceWith(true)
                .onFailure(DirectoryClient.NotFound.class).recoverWithItem(true)
                .call(() -> pool.preparedQuery("UPDATE webhook_subscription SET notice_due_at = NULL WHERE id = $1")
                        .execute(Tuple.of(owed.id())))
                .invoke(() -> LOG.infof("event=webhook_notice_sent subscription_id=%d namespace=%s", owed.id(), owed.namespace()))
                .onFailure().recoverWithItem(e -> {
                    LOG.warnf("event=webhook_notice_failed subscription_id=%d error=%s", owed.id(), e.toString());
                    return false;
                });
    }
}
