package org.ziggurat.auth.people;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.clients.ApplicationRepository;
import org.ziggurat.auth.tokens.SignOutRepository;
import org.ziggurat.platform.people.PersonErasure;
import org.ziggurat.platform.rest.people.HeldPersonData;
import org.ziggurat.platform.token.Callers;

/**
 * What auth-service holds about a person (platform-rest's {@code PersonData} checks that
 * directory-service asks): their export's part, and their erasure when their account is deleted
 * (every token and sign-in ended, their applications deleted with everything issued to them, the
 * rest forgotten). Erasing twice does nothing more. Also their sign-out everywhere, for directory-service alone.
 */
@ApplicationScoped
public class AuthPersonData implements HeldPersonData {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final Callers callers;
    private final PersonDataRepository repository;
    private final SignOutRepository signOuts;
    private final ApplicationRepository applications;

    AuthPersonData(Callers callers, PersonDataRepository repository, SignOutRepository signOuts, ApplicationRepository applications) {
        this.callers = callers;
        this.repository = repository;
        this.signOuts = signOuts;
        this.applications = applications;
    }

    @Override
    public Uni<JsonObject> export(long personId) {
        return repository.export(personId);
    }

    @Override
    public Uni<Void> erase(PersonErasure erasure) {
        return erased(erasure.personId());
    }

    /** After a password changed through the API: every sign-in ends, and the client-less password grant's tokens. */
    public Uni<Void> signOut(long personId) {
        return PersonErasure.directoryOnly(callers).chain(service -> signOuts.signOutKeepingApplications(personId))
                .invoke(revoked -> EVENTS.infof("event=signed_out_everywhere person_id=%d revoked_tokens=%d", personId, revoked))
                .replaceWithVoid();
    }

    /** Also for the account page, at once, before the directory's erasure reaches every replica. */
    public Uni<Void> erased(long personId) {
        return signOuts.signOutEverywhere(personId)
                .chain(revoked -> applications.listOwnedBy(personId)
                        .chain(owned -> Multi.createFrom().iterable(owned).onItem()
                                .transformToUniAndConcatenate(app -> applications.delete(app.id(), personId)).collect().asList())
                        .chain(deleted -> repository.forget(personId)
                                .invoke(forgotten -> EVENTS.infof("event=person_erased person_id=%d revoked_tokens=%d "
                                        + "applications_deleted=%d rows_forgotten=%d", personId, revoked, deleted.size(), forgotten))))
                .replaceWithVoid();
    }
}
