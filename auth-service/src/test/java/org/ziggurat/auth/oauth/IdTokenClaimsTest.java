package org.ziggurat.auth.oauth;

import com.nimbusds.jwt.JWTClaimsSet;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IdTokenClaimsTest {

    @Test
    void atHashIsTheLeftHalfOfTheSha256() {
        // OpenID Connect Core, Appendix A.3 (an ID token with at_hash for this access token).
        assertEquals("77QmUPtjPfzWtF2AnpK9RQ", IdTokenClaims.atHash("jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y"));
    }

    @Test
    void theClaimsOfAnIdToken() throws Exception {
        Instant now = Instant.parse("2026-11-25T12:00:00Z");
        Instant signedIn = now.minusSeconds(300);
        JWTClaimsSet claims = IdTokenClaims.of(new IdTokenClaims.Subject("https://z.example/api", 42, "Client01", signedIn,
                "n-1", AuthenticationMethods.PASSWORD_AND_CODE), "zat_token", now, Duration.ofHours(2));
        assertEquals("https://z.example/api", claims.getIssuer());
        assertEquals("42", claims.getSubject());
        assertEquals(List.of("Client01"), claims.getAudience());
        assertEquals("Client01", claims.getStringClaim("azp"));
        assertEquals(now.plusSeconds(7200).getEpochSecond(), claims.getExpirationTime().toInstant().getEpochSecond());
        assertEquals(signedIn.getEpochSecond(), claims.getLongClaim("auth_time"));
        assertEquals("n-1", claims.getStringClaim("nonce"));
        assertEquals(IdTokenClaims.atHash("zat_token"), claims.getStringClaim("at_hash"));
        assertEquals(List.of("pwd", "otp", "mfa"), claims.getStringListClaim("amr"), "RFC 8176's method references");
        assertEquals("https://refeds.org/profile/mfa", claims.getStringClaim("acr"));
        JWTClaimsSet password = IdTokenClaims.of(new IdTokenClaims.Subject("https://z.example/api", 42, "Client01", signedIn,
                null, AuthenticationMethods.PASSWORD_ONLY), null, now, Duration.ofHours(2));
        assertEquals(List.of("pwd"), password.getStringListClaim("amr"));
        assertEquals("https://refeds.org/profile/sfa", password.getStringClaim("acr"));

        JWTClaimsSet refreshed = IdTokenClaims.of(new IdTokenClaims.Subject("https://z.example/api", 42, "Client01", null, null,
                null), "zat_other", now, Duration.ofHours(2));
        assertNull(refreshed.getClaim("nonce"));
        assertNull(refreshed.getClaim("amr"), "not known: left out");
        assertNull(refreshed.getClaim("auth_time"));
    }

    @Test
    void userinfoClaimsFollowTheScopes() {
        var person = new UserInfoClaims.Person(42, "ada", "Ada Lovelace", "https://z.example/ada.png", "https://z.example/ada",
                "ada@example.org", Instant.parse("2026-01-01T00:00:00Z"), false, null);
        assertEquals(Map.of("sub", "42"), UserInfoClaims.of(person, List.of("openid")));
        Map<String, Object> profile = UserInfoClaims.of(person, List.of("openid", "profile"));
        assertEquals("ada", profile.get("preferred_username"));
        assertEquals("Ada Lovelace", profile.get("name"));
        assertEquals(1767225600L, profile.get("updated_at"));
        assertEquals("https://z.example/ada.png", profile.get("picture"));
        assertEquals("https://z.example/ada", profile.get("profile"));
        var faceless = new UserInfoClaims.Person(43, "bo", "", null, null, null, null, false, null);
        assertEquals(Map.of("sub", "43", "preferred_username", "bo"), UserInfoClaims.of(faceless, List.of("openid", "profile", "email")),
                "empty and missing fields are left out, not sent empty");
        assertFalse(profile.containsKey("email"));
        Map<String, Object> email = UserInfoClaims.of(person, List.of("openid", "email"));
        assertEquals("ada@example.org", email.get("email"));
        assertEquals(false, email.get("email_verified"), "not proved yet");
        assertFalse(email.containsKey("name"));
        var proved = new UserInfoClaims.Person(42, "ada", "Ada Lovelace", null, null, "ada@example.org", null, true, null);
        assertEquals(true, UserInfoClaims.of(proved, List.of("openid", "email")).get("email_verified"));
    }

    @Test
    void researchClaimsFollowTheirScopesAndLeaveEmptyValuesOut() {
        var research = new ResearchClaims.Person(List.of("urn:x:group:lab#x.org", "urn:x:group:lab:role=member#x.org"),
                "0000-0002-1825-0097", List.of("https://refeds.org/assurance"), "42@x.org");
        var person = new UserInfoClaims.Person(42, "ada", "Ada", null, null, null, null, false, research);
        assertEquals(Map.of("sub", "42"), UserInfoClaims.of(person, List.of("openid")));
        Map<String, Object> all = UserInfoClaims.of(person, List.of("openid", "entitlements", "orcid", "eduperson_assurance",
                "voperson_id"));
        assertEquals(research.entitlements(), all.get("eduperson_entitlement"));
        assertEquals("https://orcid.org/0000-0002-1825-0097", all.get("orcid"));
        assertEquals(List.of("https://refeds.org/assurance"), all.get("eduperson_assurance"));
        assertEquals("42@x.org", all.get("voperson_id"));
        assertEquals(Map.of("voperson_id", "42@x.org"), ResearchClaims.of(research, List.of("voperson_id")));
        var bare = new ResearchClaims.Person(List.of(), null, List.of(), "43@x.org");
        assertEquals(Map.of(), ResearchClaims.of(bare, List.of("entitlements", "orcid", "eduperson_assurance")));
        assertEquals(Map.of(), ResearchClaims.of(null, List.of("entitlements")));
        assertTrue(ResearchClaims.asked(List.of("openid", "orcid")));
        assertFalse(ResearchClaims.asked(List.of("openid", "profile")));
        assertTrue(UserInfoClaims.SUPPORTED.containsAll(ResearchClaims.SUPPORTED));
    }

    @Test
    void researchClaimsJoinAnIdTokenWithoutReplacingItsOwn() {
        Instant now = Instant.parse("2026-06-01T12:00:00Z");
        JWTClaimsSet claims = IdTokenClaims.of(new IdTokenClaims.Subject("https://iss.example", 7, "app", now, null,
                List.of()), null, now, Duration.ofHours(1), Map.of("voperson_id", "7@x.org", "sub", "someone else"));
        assertEquals("7@x.org", claims.getClaim("voperson_id"));
        assertEquals("7", claims.getSubject(), "a research claim never replaces a claim of the token's own");
        assertNull(claims.getClaim("amr"), "a provider that named no method: no amr, not an empty one");
        assertEquals(AuthenticationMethods.ACR_SINGLE_FACTOR, claims.getClaim("acr"));
    }
}
