package org.ziggurat.auth.grants;

import org.junit.jupiter.api.Test;

import org.ziggurat.auth.clients.AccessorRepository;
import org.ziggurat.platform.permissions.UserPermissions;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rules of grants and authorizations, without HTTP. */
class GrantRulesTest {

    @Test
    void anApplicationsAuthorizationIsReadByThePersonsOwnTokenOrOneOfThatApplication() {
        assertTrue(ClientBoundReads.mayRead(Optional.empty(), "ClientA0000000000000"));
        assertTrue(ClientBoundReads.mayRead(Optional.of("ClientA0000000000000"), "ClientA0000000000000"));
        assertFalse(ClientBoundReads.mayRead(Optional.of("ClientB0000000000000"), "ClientA0000000000000"));
        // Client ids are compared exactly: one that differs in case is another client.
        assertFalse(ClientBoundReads.mayRead(Optional.of("clienta0000000000000"), "ClientA0000000000000"));
    }

    static final long ADA = 7;
    static final long LAB = 30;
    static final long VAULT = 31;
    static final long APP = 100;
    static final long OTHER_APP = 101;
    static final UserPermissions READ = new UserPermissions(false, true, false, false, false, false, false);
    static final UserPermissions CREATE_COMMENT = new UserPermissions(true, false, false, false, false, true, false);
    static final UserPermissions MANAGE = new UserPermissions(false, false, false, false, true, false, false);
    static final UserPermissions ALL = new UserPermissions(true, true, true, true, true, true, true);

    static AccessorRepository.Accessor entry(long app, String kind, long subject, UserPermissions permissions) {
        return new AccessorRepository.Accessor(app, kind, subject, permissions);
    }

    @Test
    void effectivePermissionsAreThePersonsOwnOrTheirOrganizationsEntries() {
        Map<Long, UserPermissions> merged = PermissionMerge.effective(ADA, List.of(LAB), List.of(APP, OTHER_APP), List.of(
                entry(APP, AccessorRepository.PERSON, ADA, READ),
                entry(APP, AccessorRepository.ORGANIZATION, LAB, CREATE_COMMENT)));
        assertEquals(new UserPermissions(true, true, false, false, false, true, false), merged.get(APP));
        assertEquals(UserPermissions.NONE, merged.get(OTHER_APP), "every application asked about is answered");
        assertEquals(2, merged.size());
    }

    @Test
    void entriesOfOthersCountForNothing() {
        Map<Long, UserPermissions> merged = PermissionMerge.effective(ADA, List.of(LAB), List.of(APP), List.of(
                entry(APP, AccessorRepository.PERSON, ADA + 1, MANAGE),
                entry(APP, AccessorRepository.ORGANIZATION, VAULT, MANAGE),
                entry(APP, "team", LAB, MANAGE),
                // a person's id equal to an organization's is still a person
                entry(APP, AccessorRepository.PERSON, LAB, MANAGE),
                entry(APP, AccessorRepository.ORGANIZATION, ADA, MANAGE),
                entry(OTHER_APP, AccessorRepository.PERSON, ADA, MANAGE)));
        assertEquals(Map.of(APP, UserPermissions.NONE), merged);
    }

    @Test
    void manageImpliesEveryOtherPermission() {
        assertEquals(Map.of(APP, ALL), PermissionMerge.effective(ADA, List.of(VAULT), List.of(APP),
                List.of(entry(APP, AccessorRepository.ORGANIZATION, VAULT, MANAGE))));
        assertEquals(Map.of(APP, READ), PermissionMerge.effective(ADA, List.of(), List.of(APP),
                List.of(entry(APP, AccessorRepository.PERSON, ADA, READ))));
        assertEquals(Map.of(), PermissionMerge.effective(ADA, List.of(VAULT), List.of(), List.of()));
    }
}
