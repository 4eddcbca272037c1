package org.ziggurat.platform.people;

import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;

/**
 * The contract between directory-service, which keeps the people, and each service that holds
 * data about them: {@code GET /internal/people/{id}/export} gives the service's part of a person's
 * export, {@code POST /internal/erasures} with this body erases a deleted account's data there
 * (idempotent: the directory delivers at least once). Only directory-service may ask either.
 */
@RegisterForReflection
public record PersonErasure(long personId, String username) {

    /** The one caller of a person-data API. */
    public static final String CALLER = "directory-service";

    /** 422 unless both are given. */
    public PersonErasure requireValid() {
        if (personId <= 0 || username == null || username.isBlank()) {
            throw ProblemException.invalidField("person_id", "person_id and username are required");
        }
        return this;
    }

    /** The calling service, when it is directory-service: 401 for no service token, 403 for any other caller. */
    public static Uni<String> directoryOnly(Callers callers) {
        return callers.service().invoke(service -> {
            if (!CALLER.equals(service)) {
                throw ProblemException.forbidden("Only " + CALLER + " asks this.");
            }
        });
    }
}
