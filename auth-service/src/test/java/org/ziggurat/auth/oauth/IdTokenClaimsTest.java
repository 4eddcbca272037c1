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
                "ada@example.org", Instant.parse("2026-01-01T00:00:00Z"), false);
        assertEquals(Map.of("sub", "42"), UserInfoClaims.of(person, List.of("openid")));
        Map<String, Object> profile = UserInfoClaims.of(person, List.of("openid", "profile"));
        assertEquals("ada", profile.get("preferred_username"));
        assertEquals("Ada Lovelace", profile.get("name"));
        assertEquals(1767225600L, profile.get("updated_at"));
        assertEquals("https://z.example/ada.png", profile.get("picture"));
        assertEquals("https://z.example/ada", profile.get("profile"));
        var faceless = new UserInfoClaims.Person(43, "bo", "", null, null, null, null, false);
        assertEquals(Map.of("sub", "43", "preferred_username", "bo"), UserInfoClaims.of(faceless, List.of("openid", "profile", "email")),
                "empty and missing fields are left out, not sent empty");
        assertFalse(profile.containsKey("email"));
        Map<String, Object> email = UserInfoClaims.of(person, List.of("openid", "email"));
        assertEquals("ada@example.org", email.get("email"));
        assertEquals(false, email.get("email_verified"), "not proved yet");
        assertFalse(email.containsKey("name"));
        var proved = new UserInfoClaims.Person(42, "ada", "Ada Lovelace", null, null, "ada@example.org", null, true);
        assertEquals(true, UserInfoClaims.of(proved, List.of("openid", "email")).get("email_verified"));
    }
}
