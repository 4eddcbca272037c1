package org.ziggurat.directory.organizations;

import org.junit.jupiter.api.Test;
import org.ziggurat.platform.permissions.NamespaceAccess.Withheld;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Rights from memberships, without HTTP or the database. */
class MembershipRulesTest {

    static final long ADA = 7;
    static final long BOB = 8;

    static MembershipRow membership(String role, String state) {
        return new MembershipRow(1, "lab", ADA, "ada", role, state, Instant.EPOCH, Instant.EPOCH);
    }

    static OrganizationRow organization(String visibility) {
        return new OrganizationRow(1, "lab", "Lab", visibility, false, List.of(), List.of(), Instant.EPOCH, Instant.EPOCH);
    }

    @Test
    void aPersonsNamespaceIsReadByAllAndWrittenByThePersonAlone() {
        assertEquals(new MembershipRules.Rights(true, true, true), MembershipRules.inPersonNamespace(ADA, ADA));
        assertEquals(new MembershipRules.Rights(true, false, false), MembershipRules.inPersonNamespace(ADA, BOB));
        assertEquals(new MembershipRules.Rights(true, false, false), MembershipRules.inPersonNamespace(ADA, 0));
    }

    @Test
    void anOrganizationsNamespaceGivesRightsToActiveMembersOnly() {
        assertEquals(new MembershipRules.Rights(true, false, false),
                MembershipRules.inOrganizationNamespace("public", null, null));
        assertEquals(new MembershipRules.Rights(false, false, false),
                MembershipRules.inOrganizationNamespace("private", null, null));
        assertEquals(new MembershipRules.Rights(false, false, false),
                MembershipRules.inOrganizationNamespace("private", "admin", "pending"), "an invitation gives nothing");
        assertEquals(new MembershipRules.Rights(true, false, false),
                MembershipRules.inOrganizationNamespace("public", "admin", "pending"));
        assertEquals(new MembershipRules.Rights(true, true, false),
                MembershipRules.inOrganizationNamespace("private", "member", "active"));
        assertEquals(new MembershipRules.Rights(true, true, true),
                MembershipRules.inOrganizationNamespace("private", "admin", "active"));
        assertEquals(new MembershipRules.Rights(true, true, true),
                MembershipRules.inOrganizationNamespace("public", "admin", "active"));
    }

    @Test
    void aPrivateOrganizationIsSeenByItsMembersAndInvitees() {
        assertTrue(MembershipRules.sees(organization("public"), null));
        assertFalse(MembershipRules.sees(organization("private"), null));
        assertTrue(MembershipRules.sees(organization("private"), membership("member", "active")));
        assertTrue(MembershipRules.sees(organization("private"), membership("member", "pending")),
                "one sees what one is invited to");
    }

    @Test
    void onlyAnActiveAdminAdministers() {
        assertTrue(MembershipRules.administers(membership("admin", "active")));
        assertFalse(MembershipRules.administers(membership("admin", "pending")));
        assertFalse(MembershipRules.administers(membership("member", "active")));
        assertFalse(MembershipRules.administers(null));
    }

    @Test
    void aMembershipIsSeenByThePersonAndByThoseInTheOrganization() {
        assertTrue(MembershipRules.seesMembership(ADA, null, ADA), "one's own");
        assertFalse(MembershipRules.seesMembership(BOB, null, ADA), "someone else's, from outside");
        assertTrue(MembershipRules.seesMembership(BOB, membership("member", "active"), ADA));
    }

    @Test
    void anOrganizationKeepsAnActiveAdmin() {
        assertTrue(MembershipRules.needsAnotherAdmin(membership("admin", "active"), "member"));
        assertTrue(MembershipRules.needsAnotherAdmin(membership("admin", "active"), null), "an admin who goes");
        assertFalse(MembershipRules.needsAnotherAdmin(membership("admin", "active"), "admin"));
        assertFalse(MembershipRules.needsAnotherAdmin(membership("admin", "pending"), null), "an invited admin is no admin yet");
        assertFalse(MembershipRules.needsAnotherAdmin(membership("member", "active"), null));
        assertFalse(MembershipRules.anAdminMayGo(1));
        assertTrue(MembershipRules.anAdminMayGo(2));
        assertFalse(MembershipRules.anAdminMayGo(0));
    }

    @Test
    void anOrganizationsRequirementOfASecondFactorHoldsInItsAdministrationAsInItsData() {
        // Where none is required, the sign-in does not matter.
        assertEquals(Withheld.NOTHING, MembershipRules.inAdministration(false, false, false));
        assertEquals(Withheld.NOTHING, MembershipRules.inAdministration(false, true, false));
        // Where one is: an admin without one sets one up; with one, signs in with it.
        assertEquals(Withheld.UNTIL_SECOND_FACTOR, MembershipRules.inAdministration(true, false, false));
        assertEquals(Withheld.UNTIL_SECOND_FACTOR, MembershipRules.inAdministration(true, false, true),
                "a token from a sign-in with a factor since removed");
        assertEquals(Withheld.UNTIL_SIGN_IN_WITH_SECOND_FACTOR, MembershipRules.inAdministration(true, true, false));
        assertEquals(Withheld.NOTHING, MembershipRules.inAdministration(true, true, true));
    }

    @Test
    void changingTheRequirementNeedsASignInWithASecondFactorWhetherItIsOnOrNot() {
        assertEquals(Withheld.UNTIL_SECOND_FACTOR, MembershipRules.toChangeTheRequirement(false, false));
        assertEquals(Withheld.UNTIL_SECOND_FACTOR, MembershipRules.toChangeTheRequirement(false, true));
        assertEquals(Withheld.UNTIL_SIGN_IN_WITH_SECOND_FACTOR, MembershipRules.toChangeTheRequirement(true, false));
        assertEquals(Withheld.NOTHING, MembershipRules.toChangeTheRequirement(true, true));
    }
}
