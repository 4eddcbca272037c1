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
 * Tells a namespace's admins that one of its webhooks was disabled, by mail through
 * directory-service (which knows the admins and their addresses, and keeps the mail outbox). The
 * subscription's row is this notice's outbox: disabling sets {@code notice_due_at} in the same
 * transaction; any replica claims it with a lease, asks the directory, and clears it; a directory
 * that is away is asked again later. A namespace that no longer exists owes nothing.
 */
@ApplicationScoped
public class OwnerNotices {

    private static final Logger LOG = Logger.getLogger("org.ziggurat.events.webhooks");

    record Owed(long id, String namespace, String repository, String targetUrl, String reason) {
    }

    private final Pool pool;
    private final DirectoryClient directory;

    OwnerNotices(Pool pool, @RestClient DirectoryClient directory) {
        this.pool = pool;
        this.directory = directory;
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
                        + "LIMIT 20 FOR UPDATE SKIP LOCKED) RETURNING id, namespace, repository, target_url, disabled_reason")
                .execute().map(rows -> {
                    List<Owed> owed = new ArrayList<>();
                    for (Row r : rows) {
                        owed.add(new Owed(r.getLong("id"), r.getString("namespace"), r.getString("repository"),
                                r.getString("target_url"), r.getString("disabled_reason")));
                    }
                    return owed;
                })
                .onItem().transformToMulti(owed -> Multi.createFrom().iterable(owed))
                .onItem().transformToUniAndConcatenate(this::tell)
                .collect().asList().map(told -> (int) told.stream().filter(Boolean::booleanValue).count());
    }

    private Uni<Boolean> tell(Owed owed) {
        String place = owed.repository() == null ? "the namespace " + owed.namespace()
                : "the repository " + owed.namespace() + "/" + owed.repository();
        DirectoryClient.AdminNotice notice = new DirectoryClient.AdminNotice("webhook_disabled",
                "A webhook of " + owed.namespace() + " was disabled",
                "The webhook " + owed.id() + " of " + place + ", which sends events to " + owed.targetUrl()
                        + ", was disabled: " + owed.reason() + "\n\nEvents recorded meanwhile are kept. When the receiver "
                        + "is back, activate the webhook again (PATCH its \"active\" to true) and redeliver the failed "
                        + "deliveries (POST its redeliveries with a \"since\").\n");
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
