package org.ziggurat.auth.grants;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;
import org.ziggurat.auth.clients.AccessorRepository;
import org.ziggurat.auth.clients.ApplicationRow;
import org.ziggurat.auth.clients.ApplicationService;
import org.ziggurat.directory.client.DirectoryClient;
import org.ziggurat.platform.permissions.NamespaceAccess;
import org.ziggurat.platform.permissions.UserPermissions;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;
import org.ziggurat.platform.token.ScopeNames;

import java.util.List;

/**
 * User permissions that an application's owner gives people and organizations (the accessors).
 * Every method checks first that the caller is a person with the admin scope who owns the
 * application; an organization is attached only by one of its active admins, who meets its
 * requirement of a second factor.
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
                DirectoryClient.OrganizationOfPerson administered = managed.stream()
                        .filter(o -> o.id() == organization && "admin".equals(o.role())).findFirst().orElseThrow(() -> unknown);
                return meetsTheRequirement(administered, person, c.signedInWithSecondFactor(), unknown)
                        .chain(() -> directory.link(organization, app.clientId(),
                                new DirectoryClient.LinkPermissions(permissions.toJson())))
                        .onFailure(DirectoryClient.NotFound.class).transform(e -> unknown)
                        .chain(() -> accessors.put(app.id(), AccessorRepository.ORGANIZATION, organization, permissions))
                        .invoke(created -> EVENTS.infof("event=permissions_given client_id=%s organization_id=%d",
                                app.clientId(), organization));
            }));
        });
    }

    /**
     * An organization's requirement of a second factor holds in its administration as in its data:
     * the directory withholds an admin's rights there (its namespace's {@code admin}) from one without
     * a second factor, or whose sign-in did not use it, and they are told so as there (403 or RFC
     * 9470's 401, {@link NamespaceAccess}). An admin no longer (a change since) gets {@code unknown}.
     */
    private Uni<Void> meetsTheRequirement(DirectoryClient.OrganizationOfPerson organization, long person,
            boolean secondFactorSignIn, ProblemException unknown) {
        return directory.namespace(organization.name(), person, secondFactorSignIn)
                .onFailure(DirectoryClient.NotFound.class).transform(e -> unknown)
                .invoke(ns -> {
                    if (!ns.admin()) {
                        if (ns.withheld() != NamespaceAccess.Withheld.NOTHING) {
                            EVENTS.infof("event=permissions_refused organization_id=%d person_id=%d reason=%s",
                                    organization.id(), person, ns.withheld());
                            NamespaceAccess.requireWrite(ns.name(), false, ns.withheld());
                        }
                        throw unknown;
                    }
                }).replaceWithVoid();
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
