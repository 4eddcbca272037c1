package org.ziggurat.auth.grants;

import org.ziggurat.auth.clients.AccessorRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.ziggurat.directory.client.DirectoryClient;
import org.ziggurat.platform.permissions.UserPermissions;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * A person's effective user permissions for applications ({@link PermissionMerge}'s rule): one
 * directory call and one query, however many applications.
 */
@ApplicationScoped
public class Permissions {

    private final AccessorRepository accessors;
    private final DirectoryClient directory;

    Permissions(AccessorRepository accessors, @RestClient DirectoryClient directory) {
        this.accessors = accessors;
        this.directory = directory;
    }

    public Uni<Map<Long, UserPermissions>> effective(long personId, Collection<Long> applicationIds) {
        if (applicationIds.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return directory.organizationsOf(personId).chain(orgs -> {
            List<Long> organizations = orgs.stream().map(DirectoryClient.OrganizationOfPerson::id).toList();
            return accessors.forPerson(applicationIds.toArray(Long[]::new), personId, organizations.toArray(Long[]::new))
                    .map(entries -> PermissionMerge.effective(personId, organizations, applicationIds, entries));
        });
    }
}
