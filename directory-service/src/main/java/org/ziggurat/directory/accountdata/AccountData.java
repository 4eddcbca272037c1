package org.ziggurat.directory.accountdata;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.directory.mail.SecurityNotices;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Caller;
import org.ziggurat.platform.token.Callers;
import org.ziggurat.platform.token.ScopeNames;

import java.time.Instant;

/**
 * A person's data across the platform: the export (the directory's part and each peer's, whole or
 * not at all) and the deletion of the account (the directory's part at once; the peers' by the
 * erasures {@link ErasureWorker} delivers). By the person with the account scope, after their
 * password (selfservice's OwnCredentials checks it first), or for auth-service's account page
 * (which asked for the password first).
 */
@ApplicationScoped
public class AccountData {

    private static final Logger LOG = Logger.getLogger(AccountData.class);
    /** What an export file says it is, for whoever reads it later. */
    public static final String FORMAT = "ziggurat-account-export/1";

    private final Callers callers;
    private final AccountDataRepository data;
    private final AccountDeletionRepository deletions;
    private final Peers peers;
    private final SecurityNotices notices;

    AccountData(Callers callers, AccountDataRepository data, AccountDeletionRepository deletions, Peers peers,
            SecurityNotices notices) {
        this.callers = callers;
        this.data = data;
        this.deletions = deletions;
        this.peers = peers;
        this.notices = notices;
    }

    public Uni<JsonObject> export(Caller caller) {
        return export(caller.requireUserWithScope(ScopeNames.ACCOUNT));
    }

    public Uni<JsonObject> exportForService(long personId) {
        return callers.service().chain(service -> export(personId));
    }

    public Uni<AccountDeletionRepository.Deleted> delete(Caller caller, String confirm) {
        return delete(caller.requireUserWithScope(ScopeNames.ACCOUNT), confirm);
    }

    public Uni<AccountDeletionRepository.Deleted> deleteForService(long personId, String confirm) {
        return callers.service().chain(service -> delete(personId, confirm));
    }

    /** 404 for an unknown person; 503 when a service holding part of it cannot answer. */
    Uni<JsonObject> export(long personId) {
        return data.export(personId).onItem().ifNull().failWith(() -> ProblemException.notFound("No such person."))
                .chain(directory -> Uni.combine().all().unis(peers.export("auth-service", personId),
                                peers.export("vocab-service", personId), peers.export("events-service", personId)).asTuple()
                        .map(parts -> new JsonObject().put("format", FORMAT).put("exported_at", Instant.now().toString())
                                .put("directory", directory).put("auth", parts.getItem1()).put("vocab", parts.getItem2())
                                .put("events", parts.getItem3())))
                .invoke(export -> LOG.infof("event=account_exported person_id=%d", personId));
    }

    Uni<AccountDeletionRepository.Deleted> delete(long personId, String confirm) {
        return deletions.delete(personId, confirm, notices::accountDeleted)
                .onItem().ifNull().failWith(() -> ProblemException.notFound("No such person."))
                .onFailure(AccountDeletionRepository.NotConfirmed.class).transform(e -> ProblemException.invalidField("confirm",
                        "must be the account's username, typed again"))
                .onFailure(AccountDeletionRepository.SoleAdmin.class).transform(e -> ProblemException.conflict("You alone "
                        + "administer " + String.join(", ", ((AccountDeletionRepository.SoleAdmin) e).organizations())
                        + ", which other people are members of: make one of them an admin, or delete the organization, "
                        + "then delete your account."))
                .invoke(deleted -> LOG.infof("event=account_deleted person_id=%d organizations_deleted=%d", personId,
                        deleted.organizationsDeleted().size()));
    }
}
