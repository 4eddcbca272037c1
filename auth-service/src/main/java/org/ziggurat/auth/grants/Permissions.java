package org.ziggurat.auth.grants;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.ziggurat.auth.directory.DirectoryClient;
import org.ziggurat.platform.permissions.UserPermissions;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * A person's effective user permissions for applications: each flag is true when the person's
 * own grant, or the grant of any organization in which they are an active member, has it;
 * {@code manage} implies all the others. One directory call and one query, however many
 * applications.
 */
@ApplicationScoped
public class Permissions {

    @Inject
    AccessorRepository accessors;

    @Inject
    @RestClient
    DirectoryClient directory;

    public Uni<Map<Long, UserPermissions>> effective(long personId, Collection<Long> applicationIds) {
        if (applicationIds.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return directory.organizationsOf(personId)
                .chain(orgs -> accessors.forPerson(applicationIds.toArray(Long[]::new), personId,
                        orgs.stream().map(DirectoryClient.OrganizationOfPerson::id).toArray(Long[]::new)))
                .map(rows -> {
                    Map<Long, UserPermissions> merged = new HashMap<>();
                    applicationIds.forEach(id -> merged.put(id, UserPermissions.NONE));
                    rows.forEach(row -> merged.merge(row.applicationId(), row.permissions(), UserPermissions::or));
                    merged.replaceAll((id, p) -> p.effective());
                    return merged;
                });
    }
}
