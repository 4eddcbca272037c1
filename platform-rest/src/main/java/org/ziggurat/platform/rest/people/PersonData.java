package org.ziggurat.platform.rest.people;

import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.platform.people.PersonErasure;
import org.ziggurat.platform.token.Callers;

/**
 * A person's data here, for directory-service only: their export's part, and their erasure. What
 * the service holds is its own {@link HeldPersonData}; this is the check in front of it.
 */
@ApplicationScoped
@IfBuildProperty(name = PersonDataResource.ENABLED, stringValue = "true")
public class PersonData {

    private final Callers callers;
    private final HeldPersonData held;

    PersonData(Callers callers, HeldPersonData held) {
        this.callers = callers;
        this.held = held;
    }

    public Uni<JsonObject> export(long personId) {
        return PersonErasure.directoryOnly(callers).chain(service -> held.export(personId));
    }

    public Uni<Void> erase(PersonErasure erasure) {
        return PersonErasure.directoryOnly(callers).chain(service -> held.erase(erasure));
    }
}
