package org.ziggurat.directory.internal;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A namespace's row as the other services are told it, with the rights of one person, without the database. */
class NamespaceLookupsTest {

    static InternalRepository.NamespaceRow organization(String visibility, String role, String state, boolean required,
            boolean secondFactor) {
        return new InternalRepository.NamespaceRow("lab", "organization", null, 3L, visibility, role, state, required,
                secondFactor);
    }

    @Test
    void aPersonsNamespaceIsPublicAndTheirsToWrite() {
        InternalRepository.NamespaceRow ada = new InternalRepository.NamespaceRow("ada", "person", 7L, null, null, null,
                null, false, false);
        assertEquals(new NamespaceLookups.Namespace("ada", "person", 7, "public", true, true, true, false, false),
                NamespaceLookups.rights(ada, 7, true));
        assertEquals(new NamespaceLookups.Namespace("ada", "person", 7, "public", true, false, false, false, false),
                NamespaceLookups.rights(ada, 8, true));
    }

    @Test
    void anOrganizationsNamespaceFollowsItsVisibilityAndTheMembership() {
        assertEquals(new NamespaceLookups.Namespace("lab", "organization", 3, "private", true, true, false, false, false),
                NamespaceLookups.rights(organization("private", "member", "active", false, false), 7, true));
        assertEquals(new NamespaceLookups.Namespace("lab", "organization", 3, "private", false, false, false, false, false),
                NamespaceLookups.rights(organization("private", null, null, false, false), 0, true));
    }

    @Test
    void aMemberWithoutTheRequiredSecondFactorHasAnOutsidersRightsAndIsToldWhy() {
        assertEquals(new NamespaceLookups.Namespace("lab", "organization", 3, "private", false, false, false, true, false),
                NamespaceLookups.rights(organization("private", "admin", "active", true, false), 7, true));
        assertEquals(new NamespaceLookups.Namespace("lab", "organization", 3, "public", true, false, false, true, false),
                NamespaceLookups.rights(organization("public", "member", "active", true, false), 7, true));
        // With one, the member's rights; an outsider is an outsider either way, and not told about factors.
        assertEquals(new NamespaceLookups.Namespace("lab", "organization", 3, "private", true, true, true, false, false),
                NamespaceLookups.rights(organization("private", "admin", "active", true, true), 7, true));
        assertEquals(new NamespaceLookups.Namespace("lab", "organization", 3, "private", false, false, false, false, false),
                NamespaceLookups.rights(organization("private", null, null, true, false), 8, true));
        assertEquals(new NamespaceLookups.Namespace("lab", "organization", 3, "private", false, false, false, false, false),
                NamespaceLookups.rights(organization("private", "member", "invited", true, false), 8, true));
    }

    @Test
    void aMemberWhoSignedInWithoutTheirSecondFactorHasAnOutsidersRightsUntilTheySignInWithIt() {
        assertEquals(new NamespaceLookups.Namespace("lab", "organization", 3, "private", false, false, false, false, true),
                NamespaceLookups.rights(organization("private", "admin", "active", true, true), 7, false));
        assertEquals(new NamespaceLookups.Namespace("lab", "organization", 3, "public", true, false, false, false, true),
                NamespaceLookups.rights(organization("public", "member", "active", true, true), 7, false));
        // Without a factor, setting one up comes first; where none is required, the sign-in does not matter.
        assertEquals(new NamespaceLookups.Namespace("lab", "organization", 3, "private", false, false, false, true, false),
                NamespaceLookups.rights(organization("private", "member", "active", true, false), 7, false));
        assertEquals(new NamespaceLookups.Namespace("lab", "organization", 3, "private", true, true, false, false, false),
                NamespaceLookups.rights(organization("private", "member", "active", false, true), 7, false));
        assertEquals(new NamespaceLookups.Namespace("lab", "organization", 3, "private", false, false, false, false, false),
                NamespaceLookups.rights(organization("private", null, null, true, false), 8, false));
        InternalRepository.NamespaceRow ada = new InternalRepository.NamespaceRow("ada", "person", 7L, null, null, null,
                null, false, true);
        assertEquals(new NamespaceLookups.Namespace("ada", "person", 7, "public", true, true, true, false, false),
                NamespaceLookups.rights(ada, 7, false), "one's own namespace is one's own");
    }
}
