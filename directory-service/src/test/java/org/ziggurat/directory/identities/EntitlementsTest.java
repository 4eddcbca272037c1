package org.ziggurat.directory.identities;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class EntitlementsTest {

    private static final String NS = "urn:geant:example.org:ziggurat";

    @Test
    void eachMembershipIsItsGroupAndItsRoleInOrganizationOrder() {
        assertEquals(List.of(
                        NS + ":group:astro#example.org", NS + ":group:astro:role=admin#example.org",
                        NS + ":group:bio-lab#example.org", NS + ":group:bio-lab:role=member#example.org"),
                Entitlements.of(NS, "example.org", List.of(new Entitlements.Membership("bio-lab", "member"),
                        new Entitlements.Membership("astro", "admin"))));
        assertEquals(List.of(), Entitlements.of(NS, "example.org", List.of()));
    }

    @Test
    void charactersOutsideAUrnSegmentArePercentEncoded() {
        assertEquals("a-b.c_d", Entitlements.encoded("a-b.c_d"));
        assertEquals("x%3Ay%23z%20%C3%A9", Entitlements.encoded("x:y#z é"));
        // The edges of each range kept, and their neighbours encoded.
        assertEquals("azAZ09", Entitlements.encoded("azAZ09"));
        assertEquals("%60%7B%40%5B%2F%3A", Entitlements.encoded("`{@[/:"));
        assertEquals(List.of(NS + ":group:a%23b#example.org", NS + ":group:a%23b:role=r%3Ds#example.org"),
                Entitlements.of(NS, "example.org", List.of(new Entitlements.Membership("a#b", "r=s"))));
    }

    @Test
    void thePersistentIdIsScopedByTheAuthority() {
        assertEquals("42@example.org", Entitlements.vopersonId(42, "example.org"));
    }

    @Test
    void anOrganizationThatRequiresASecondFactorIsNamedOnlyForASignInWithOne() {
        org.junit.jupiter.api.Assertions.assertTrue(Entitlements.released(false, false, false));
        org.junit.jupiter.api.Assertions.assertTrue(Entitlements.released(true, true, true));
        org.junit.jupiter.api.Assertions.assertFalse(Entitlements.released(true, true, false), "a sign-in without it");
        org.junit.jupiter.api.Assertions.assertFalse(Entitlements.released(true, false, true), "a person without one");
        org.junit.jupiter.api.Assertions.assertFalse(Entitlements.released(true, false, false));
    }
}
