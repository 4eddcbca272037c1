package org.ziggurat.auth.grants;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;
import org.ziggurat.auth.clients.AccessorRepository;
import org.ziggurat.auth.clients.ApplicationRow;
import org.ziggurat.auth.clients.ApplicationService;
import org.ziggurat.directory.client.DirectoryClient;
import org.ziggurat.platform.permissions.UserPermissions;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;
import org.ziggurat.platform.token.ScopeNames;

import java.util.List;

/**
 * User permissions that an application's owner gives people and organizations (the accessors).
 * Every method checks first that the caller is a person with the admin scope who owns the
 * application; an organization is attached only by one of its active admins.
 */
@ApplicationScoped
public class AccessorService {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final Callers callers;
    private final ApplicationService applications;
    private final AccessorRepository accessors;
    private final DirectoryClient directory;

    AccessorService(Callers callers, ApplicationService applications, AccessorRepository accessors,
            @RestClient DirectoryClient directory) {
        this.callers = callers;
        this.applications = applications;
        this.accessors = accessors;
        this.directory = directory;
    }

    /** An application's accessors: the people and the organizations. */
    public record Accessors(List<AccessorRepository.Accessor> people, List<AccessorRepository.Accessor> organizations) {
    }

    public Uni<Accessors> list(long appId) {
        return owned(appId).chain(app -> accessors.ofApplication(app.id())).map(all -> new Accessors(
                all.stream().filter(a -> a.kind().equals(AccessorRepository.PERSON)).toList(),
                all.stream().filter(a -> a.kind().equals(AccessorRepository.ORGANIZATION)).toList()));
    }

    /** Gives a person these permissions; true when the entry is new. 404 for an unknown person. */
    public Uni<Boolean> putPerson(long appId, long person, UserPermissions permissions) {
        return owned(appId).chain(app -> directory.people(Long.toString(person)).chain(found -> {
            if (found.isEmpty()) {
                throw ProblemException.notFound("No person has id " + person + ".");
            }
            return accessors.put(app.id(), AccessorRepository.PERSON, person, permissions)
                    .invoke(created -> EVENTS.infof("event=permissions_given client_id=%s person_id=%d", app.clientId(), person));
        }));
    }

    /** Takes a person's permissions away; false when there were none. */
    public Uni<Boolean> deletePerson(long appId, long person) {
        return owned(appId).chain(app -> accessors.delete(app.id(), AccessorRepository.PERSON, person));
    }

    /**
     * Gives an organization these permissions; true when the entry is new. Only an active admin of
     * the organization may: anyone else gets the same 404 as for an organization that does not
     * exist, so the answer tells nothing of private organizations.
     */
    public Uni<Boolean> putOrganization(long appId, long organization, UserPermissions permissions) {
        ProblemException unknown = ProblemException.notFound("No organization has id " + organization
                + " that you manage.");
        return callers.current().chain(c -> {
            long person = c.requireUserWithScope(ScopeNames.ADMIN);
            return applications.owned(appId, person).chain(app -> directory.organizationsOf(person).chain(managed -> {
                if (managed.stream().noneMatch(o -> o.id() == organization && "admin".equals(o.role()))) {
                    throw unknown;
                }
                return directory.link(organization, app.clientId(), new DirectoryClient.LinkPermissions(permissions.toJson()))
                        .onFailure(DirectoryClient.NotFound.class).transform(e -> unknown)
                        .chain(() -> accessors.put(app.id(), AccessorRepository.ORGANIZATION, organization, permissions))
                        .invoke(created -> EVENTS.infof("event=permissions_given client_id=%s organization_id=%d",
                                app.clientId(), organization));
            }));
        });
    }

    /** Takes an organization's permissions away, and its link in the directory; false when there were none. */
    public Uni<Boolean> deleteOrganization(long appId, long organization) {
        return owned(appId).chain(app -> accessors.delete(app.id(), AccessorRepository.ORGANIZATION, organization)
                .call(deleted -> directory.unlink(organization, app.clientId())
                        .onFailure(DirectoryClient.NotFound.class).recoverWithNull()));
    }

    private Uni<ApplicationRow> owned(long appId) {
        return callers.current().chain(c -> applications.owned(appId, c.requireUserWithScope(ScopeNames.ADMIN)));
    }
}
