package org.ziggurat.auth.grants;

import org.ziggurat.auth.clients.AccessorRepository;
import org.ziggurat.platform.permissions.UserPermissions;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A person's effective user permissions for applications, from the accessor entries the
 * applications' owners gave (spec: User permissions), apart from the database: a flag is true
 * when the person's own entry, or the entry of any organization in which the person is an active
 * member, has it; {@code manage} implies all the others. An entry of anyone else counts for
 * nothing, whatever the query that found it.
 */
final class PermissionMerge {

    private PermissionMerge() {
    }

    /**
     * {@code activeOrganizations}: where the person is an active member (the directory's word);
     * every application asked about gets an answer, {@link UserPermissions#NONE} when no entry
     * counts.
     */
    static Map<Long, UserPermissions> effective(long personId, Collection<Long> activeOrganizations,
            Collection<Long> applicationIds, List<AccessorRepository.Accessor> entries) {
        Set<Long> organizations = Set.copyOf(activeOrganizations);
        Map<Long, UserPermissions> merged = new HashMap<>();
        applicationIds.forEach(id -> merged.put(id, UserPermissions.NONE));
        for (AccessorRepository.Accessor entry : entries) {
            boolean counts = switch (entry.kind()) {
                case AccessorRepository.PERSON -> entry.subjectId() == personId;
                case AccessorRepository.ORGANIZATION -> organizations.contains(entry.subjectId());
                default -> false;
            };
            if (counts && merged.containsKey(entry.applicationId())) {
                merged.merge(entry.applicationId(), entry.permissions(), UserPermissions::or);
            }
        }
        merged.replaceAll((id, p) -> p.effective());
        return merged;
    }
}
