package org.ziggurat.vocab.people;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.platform.people.PersonErasure;
import org.ziggurat.platform.token.Callers;

/** A person's data here, for directory-service only: their export's part, and their erasure. */
@ApplicationScoped
public class PersonData {

    private static final Logger LOG = Logger.getLogger(PersonData.class);

    private final Callers callers;
    private final PersonDataRepository repository;

    PersonData(Callers callers, PersonDataRepository repository) {
        this.callers = callers;
        this.repository = repository;
    }

    public Uni<JsonObject> export(long personId) {
        return PersonErasure.directoryOnly(callers).chain(service -> repository.export(personId));
    }

    public Uni<Void> erase(PersonErasure erasure) {
        return PersonErasure.directoryOnly(callers).chain(service -> repository.erase(erasure.personId(), erasure.username()))
                .invoke(changed -> LOG.infof("person erased: person_id=%d rows=%d", erasure.personId(), changed))
                .replaceWithVoid();
    }
}
