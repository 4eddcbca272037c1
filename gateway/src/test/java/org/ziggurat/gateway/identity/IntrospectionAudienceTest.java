package org.ziggurat.gateway.identity;

import io.quarkus.oidc.TokenIntrospection;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** RFC 8707 at the edge, without HTTP: the audience an introspection answer states, and whom it is for. */
class IntrospectionAudienceTest {

    static final String PLATFORM = "https://platform.example.org/api";

    @Test
    void theAudienceIsAStringOrAList() {
        assertEquals(List.of("https://a.example.org"),
                IntrospectionAnswers.audience(new TokenIntrospection("{\"active\":true,\"aud\":\"https://a.example.org\"}")));
        assertEquals(List.of("https://a.example.org", PLATFORM), IntrospectionAnswers.audience(
                new TokenIntrospection("{\"active\":true,\"aud\":[\"https://a.example.org\",\"" + PLATFORM + "\"]}")));
        assertNull(IntrospectionAnswers.audience(new TokenIntrospection("{\"active\":true}")));
    }

    @Test
    void aBoundTokenNamesItsKeyAndIsAnAccessTokenToo() {
        assertEquals("abc", IntrospectionAnswers.boundKey(new TokenIntrospection("{\"active\":true,\"cnf\":{\"jkt\":\"abc\"}}")));
        assertNull(IntrospectionAnswers.boundKey(new TokenIntrospection("{\"active\":true}")));
        assertNull(IntrospectionAnswers.boundKey(new TokenIntrospection("{\"active\":true,\"cnf\":{\"x5t#S256\":\"abc\"}}")));
        assertTrue(IntrospectionAnswers.authorizes("DPoP"));
        assertTrue(IntrospectionAnswers.authorizes("dpop"));
        assertTrue(IntrospectionAnswers.authorizes("Bearer"));
        assertFalse(IntrospectionAnswers.authorizes("refresh_token"));
        assertFalse(IntrospectionAnswers.authorizes(null));
    }

    @Test
    void aTokenIsForTheResourcesItsAudienceNames() {
        assertTrue(IntrospectionAnswers.meantFor(null, PLATFORM, PLATFORM), "none stated: the platform's");
        assertFalse(IntrospectionAnswers.meantFor(null, "https://vocab.example.org", PLATFORM));
        assertTrue(IntrospectionAnswers.meantFor(List.of("https://a.example.org", PLATFORM), PLATFORM, PLATFORM));
        assertFalse(IntrospectionAnswers.meantFor(List.of("https://a.example.org"), PLATFORM, PLATFORM));
    }
}
