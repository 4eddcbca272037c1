package org.ziggurat.directory.identities;

import org.junit.jupiter.api.Test;
import org.ziggurat.platform.problem.ProblemException;

import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What an identity from auth-service must be: each field's rule, and how it is kept. */
class IdentityRulesTest {

    private static LinkedIdentities.UpstreamIdentity identity(String provider, String subject, String email, Boolean verified,
            List<String> assurance, String orcid) {
        return new LinkedIdentities.UpstreamIdentity(provider, subject, "Ada", email, verified, assurance, orcid);
    }

    private static String refusedField(LinkedIdentities.UpstreamIdentity identity) {
        ProblemException e = assertThrows(ProblemException.class, () -> IdentityRules.checked(identity));
        assertEquals(422, e.status());
        return e.errors().get(0).field();
    }

    @Test
    void aGoodIdentityIsKeptWithItsAssuranceSpaceSeparated() {
        var kept = IdentityRules.checked(identity("egi", "s-1", " ada@uni.example ", true,
                List.of("https://refeds.org/assurance", "https://refeds.org/assurance/IAP/medium"), "0000-0002-1825-0097"));
        assertEquals("egi", kept.provider());
        assertEquals("ada@uni.example", kept.email(), "trimmed");
        assertTrue(kept.emailVerified());
        assertEquals("https://refeds.org/assurance https://refeds.org/assurance/IAP/medium", kept.assurance());
        assertEquals("0000-0002-1825-0097", kept.orcid());
        var bare = IdentityRules.checked(identity("a", "s", "  ", true, null, null));
        assertNull(bare.email(), "a blank address is none");
        assertFalse(bare.emailVerified(), "no address: nothing verified");
        assertEquals("", bare.assurance());
        assertFalse(IdentityRules.checked(identity("a", "s", "x@y.example", null, List.of(), null)).emailVerified());
        assertEquals("a", IdentityRules.checked(identity("a", "s".repeat(255), null, false, List.of(), null)).provider());
        assertEquals("p".repeat(40), IdentityRules.checked(identity("p".repeat(40), "s", null, false, List.of(), null)).provider());
    }

    @Test
    void eachBadFieldIsNamed() {
        assertThrows(ProblemException.class, () -> IdentityRules.checked(null));
        assertEquals("provider", refusedField(identity(null, "s", null, false, null, null)));
        assertEquals("provider", refusedField(identity("Egi", "s", null, false, null, null)));
        assertEquals("provider", refusedField(identity("-egi", "s", null, false, null, null)));
        assertEquals("provider", refusedField(identity("p".repeat(41), "s", null, false, null, null)));
        assertEquals("subject", refusedField(identity("egi", null, null, false, null, null)));
        assertEquals("subject", refusedField(identity("egi", " ", null, false, null, null)));
        assertEquals("subject", refusedField(identity("egi", "s".repeat(256), null, false, null, null)));
        assertEquals("email", refusedField(identity("egi", "s", "a".repeat(250) + "@x.ex", false, null, null)));
        assertEquals("orcid", refusedField(identity("egi", "s", null, false, null, "0000-0002-1825-009")));
        assertEquals("assurance", refusedField(identity("egi", "s", null, false, List.of("has space"), null)));
        assertEquals("assurance", refusedField(identity("egi", "s", null, false, List.of(""), null)));
        assertEquals("assurance", refusedField(identity("egi", "s", null, false, Collections.singletonList(null), null)));
        assertEquals("assurance", refusedField(identity("egi", "s", null, false, List.of("u".repeat(256)), null)));
        assertEquals("assurance", refusedField(identity("egi", "s", null, false,
                Collections.nCopies(IdentityRules.MOST_ASSURANCE_VALUES + 1, "https://a.example"), null)));
        assertEquals("a", IdentityRules.checked(identity("a", "s", null, false,
                Collections.nCopies(IdentityRules.MOST_ASSURANCE_VALUES, "https://a.example"), null)).provider());
        var named = new LinkedIdentities.UpstreamIdentity("egi", "s", "n".repeat(201), null, false, null, null);
        assertEquals("display_name", refusedField(named));
        // The longest of each is kept.
        assertEquals("n".repeat(200), IdentityRules.checked(new LinkedIdentities.UpstreamIdentity("egi", "s", "n".repeat(200), null,
                false, null, null)).displayName());
        String longestEmail = "a".repeat(242) + "@uni.example";
        assertEquals(254, longestEmail.length());
        assertEquals(longestEmail, IdentityRules.checked(identity("egi", "s", longestEmail, false, null, null)).email());
        assertEquals("email", refusedField(identity("egi", "s", "a" + longestEmail, false, null, null)));
        assertEquals("u".repeat(255), IdentityRules.checked(identity("egi", "s", null, false, List.of("u".repeat(255)), null))
                .assurance());
    }
}
