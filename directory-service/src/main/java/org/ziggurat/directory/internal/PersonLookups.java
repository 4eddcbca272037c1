package org.ziggurat.directory.internal;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.directory.people.PeopleRepository;
import org.ziggurat.directory.people.PeopleService;
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
    private final PeopleService peopleService;

    PersonLookups(Callers callers, InternalRepository repository, PeopleService peopleService) {
        this.callers = callers;
        this.repository = repository;
        this.peopleService = peopleService;
    }

    /** For auth-service's page that a verification link opens: proves the address (410 when the link is no good). */
    public Uni<PeopleRepository.Verified> verifyEmail(String token) {
        return callers.service().chain(service -> peopleService.verifyEmail(token));
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

    /**
     * The memberships a sign-in's entitlements may name: those whose organization's own API would
     * let that sign-in in ({@link org.ziggurat.directory.identities.Entitlements#released}).
     */
    public Uni<List<org.ziggurat.directory.identities.Entitlements.Membership>> entitledMemberships(long personId,
            boolean secondFactorSignIn) {
        return callers.service().chain(service -> repository.entitledMemberships(personId)).map(all -> all.stream()
                .filter(m -> org.ziggurat.directory.identities.Entitlements.released(m.twoFactorRequired(), m.secondFactor(),
                        secondFactorSignIn))
                .map(m -> new org.ziggurat.directory.identities.Entitlements.Membership(m.name(), m.role())).toList());
    }
}
