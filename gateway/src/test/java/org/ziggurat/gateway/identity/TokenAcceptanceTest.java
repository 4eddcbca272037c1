package org.ziggurat.gateway.identity;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where the gateway finds a caller's token, and which introspection answers it lets through, without HTTP. */
class TokenAcceptanceTest {

    @Test
    void onlyAnAccessTokenAuthorizes() {
        assertTrue(IntrospectionAnswers.authorizes("bearer"));
        assertTrue(IntrospectionAnswers.authorizes("Bearer"));
        assertFalse(IntrospectionAnswers.authorizes("refresh_token"));
        assertFalse(IntrospectionAnswers.authorizes(null));
        assertFalse(IntrospectionAnswers.authorizes(""));
    }

    @Test
    void aPersonIsANumericSubjectWithAUsername() {
        assertEquals(42L, IntrospectionAnswers.person("42", "ada"));
        assertEquals(999_999_999_999_999_999L, IntrospectionAnswers.person("999999999999999999", "ada"));
        assertNull(IntrospectionAnswers.person("42", null), "no username: a client");
        assertNull(IntrospectionAnswers.person(null, "ada"));
        assertNull(IntrospectionAnswers.person("Notebook000000000001", "ada"), "a client id as subject");
        assertNull(IntrospectionAnswers.person("0", "ada"));
        assertNull(IntrospectionAnswers.person("042", "ada"));
        assertNull(IntrospectionAnswers.person("-42", "ada"));
        assertNull(IntrospectionAnswers.person("99999999999999999999", "ada"), "past a long");
    }

    @Test
    void anIdentityIsReusedNoLongerThanItsTokenOrItsPlatformToken() {
        assertEquals(1_000, IntrospectionAnswers.usableUntil(1_000, 2_000));
        assertEquals(1_000, IntrospectionAnswers.usableUntil(3_000, 1_000));
        assertEquals(1_000, IntrospectionAnswers.usableUntil(1_000, 1_000));
        assertEquals(2_000, IntrospectionAnswers.usableUntil(0, 2_000), "no exp: the platform token's");
        assertEquals(2_000, IntrospectionAnswers.usableUntil(-5, 2_000));
        assertEquals(1, IntrospectionAnswers.usableUntil(1, 2_000));
    }

    @Test
    void theTokenComesInOneOfThreeStylesAndOnlyOnce() {
        assertEquals(new AccessTokens.Found("abc", null), AccessTokens.find("Bearer abc", null));
        assertEquals(new AccessTokens.Found("abc", null), AccessTokens.find("token abc", null));
        assertEquals(new AccessTokens.Found("abc", null), AccessTokens.find("  BEARER   abc  ", null));
        // RFC 9449 §7.1: a token bound to a key comes as DPoP (its proof in the DPoP header).
        assertEquals(new AccessTokens.Found("abc", null, true), AccessTokens.find("DPoP abc", null));
        assertEquals(new AccessTokens.Found("abc", null, true), AccessTokens.find("dpop abc", null));
        assertEquals(new AccessTokens.Found("abc", null), AccessTokens.find(null, "access_token=abc&page=2"));
        assertEquals(new AccessTokens.Found(null, null), AccessTokens.find(null, "page=2"));
        assertEquals(new AccessTokens.Found(null, null), AccessTokens.find(null, null));
        assertEquals(new AccessTokens.Found(null, null), AccessTokens.find("   ", null));
        assertEquals(new AccessTokens.Found("x".repeat(AccessTokens.MAX_LENGTH), null), AccessTokens.find("Bearer " + "x".repeat(AccessTokens.MAX_LENGTH), null));
        assertEquals(new AccessTokens.Found("x".repeat(AccessTokens.MAX_LENGTH), null), AccessTokens.find(null, "access_token=" + "x".repeat(AccessTokens.MAX_LENGTH)));
        for (String[] refused : new String[][] {
                {"Basic YWJjOmRlZg==", null}, {"Bearer", null}, {"DPoP", null}, {"DPoP abc", "access_token=abc"}, {"Bearer ", null}, {"Bearer " + "x".repeat(AccessTokens.MAX_LENGTH + 1), null},
                {"Bearer abc", "access_token=abc"}, {null, "access_token=a&access_token=b"}, {null, "access_token="},
                {null, "access_token=" + "x".repeat(AccessTokens.MAX_LENGTH + 1)}}) {
            AccessTokens.Found found = AccessTokens.find(refused[0], refused[1]);
            assertNull(found.token(), String.join(" / ", String.valueOf(refused[0]), String.valueOf(refused[1])));
            assertTrue(found.problem() != null && !found.problem().isEmpty());
        }
    }

    @Test
    void theTokenNeverTravelsFurtherInTheQuery() {
        assertEquals("page=2", AccessTokens.withoutToken("access_token=abc&page=2"));
        assertEquals("page=2&sort=x", AccessTokens.withoutToken("page=2&access_token=abc&sort=x"));
        assertNull(AccessTokens.withoutToken("access_token=abc"));
        assertNull(AccessTokens.withoutToken(null));
        assertEquals("page=2", AccessTokens.withoutToken("page=2"));
        assertEquals("q=access_token", AccessTokens.withoutToken("q=access_token"), "a value is not the parameter");
    }
}
