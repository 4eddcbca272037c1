package org.ziggurat.directory.internal;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.directory.people.PersonRow;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;

import java.util.List;

/**
 * What the other services look up about people (the internal API): for a calling service only,
 * checked here first.
 */
@ApplicationScoped
public class PersonLookups {

    private final Callers callers;
    private final InternalRepository repository;

    PersonLookups(Callers callers, InternalRepository repository) {
        this.callers = callers;
        this.repository = repository;
    }

    /** Many people at once; unknown ids are left out. */
    public Uni<List<PersonRow>> people(Long[] ids) {
        return callers.service().chain(service -> repository.people(ids));
    }

    /** One person; 404 when there is none. */
    public Uni<PersonRow> person(long id) {
        return people(new Long[] {id}).map(rows -> {
            if (rows.isEmpty()) {
                throw ProblemException.notFound("No such person.");
            }
            return rows.get(0);
        });
    }

    /** The organizations in which the person is an active member, with their role. */
    public Uni<List<InternalRepository.OrganizationOfPerson>> activeOrganizations(long personId) {
        return callers.service().chain(service -> repository.activeOrganizations(personId));
    }
}
