package org.ziggurat.directory.internal;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A namespace's row as the other services are told it, with the rights of one person, without the database. */
class NamespaceLookupsTest {

    @Test
    void aPersonsNamespaceIsPublicAndTheirsToWrite() {
        InternalRepository.NamespaceRow ada = new InternalRepository.NamespaceRow("ada", "person", 7L, null, null, null, null);
        assertEquals(new NamespaceLookups.Namespace("ada", "person", 7, "public", true, true, true),
                NamespaceLookups.rights(ada, 7));
        assertEquals(new NamespaceLookups.Namespace("ada", "person", 7, "public", true, false, false),
                NamespaceLookups.rights(ada, 8));
    }

    @Test
    void anOrganizationsNamespaceFollowsItsVisibilityAndTheMembership() {
        InternalRepository.NamespaceRow member = new InternalRepository.NamespaceRow("lab", "organization", null, 3L,
                "private", "member", "active");
        assertEquals(new NamespaceLookups.Namespace("lab", "organization", 3, "private", true, true, false),
                NamespaceLookups.rights(member, 7));
        InternalRepository.NamespaceRow stranger = new InternalRepository.NamespaceRow("lab", "organization", null, 3L,
                "private", null, null);
        assertEquals(new NamespaceLookups.Namespace("lab", "organization", 3, "private", false, false, false),
                NamespaceLookups.rights(stranger, 0));
    }
}
