package org.ziggurat.platform.rest.token;

import org.ziggurat.platform.token.Caller;
import org.ziggurat.platform.token.Callers;
import org.ziggurat.platform.token.PlatformClaims;
import org.ziggurat.platform.token.VerifiedPlatformTokens;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;
import jakarta.inject.Inject;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.PlatformTestKeys;
import org.ziggurat.platform.testing.TestTokens;

import java.util.Optional;
import java.util.Set;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
@QuarkusTestResource(PlatformTestKeys.class)
class VerifiedPlatformTokensTest {

    @Inject
    JWTParser parser;

    @Inject
    Callers callers;

    @Test
    void theServicesVerifyThroughTheRememberingParser() throws Exception {
        VerifiedPlatformTokens tokens = assertInstanceOf(VerifiedPlatformTokens.class, parser);
        String token = TestTokens.user(42, "alice", "write");
        given().header(PlatformClaims.HEADER, token).get("/probe/needs-write").then().statusCode(200);
        assertTrue(tokens.remembers(token), "a verified token is remembered");
        assertSame(tokens.parse(token), tokens.parse(token));
    }

    @Test
    void aTokensCallerIsReadOnceAndIsItsOwn() throws Exception {
        VerifiedPlatformTokens tokens = (VerifiedPlatformTokens) parser;
        String alice = TestTokens.userWithClient(42, "alice", "notebook", "user", "write");
        String bob = TestTokens.user(43, "bob", "user");
        Caller first = callers.of(identity(tokens.parse(alice)));
        assertSame(first, callers.of(identity(tokens.parse(alice))), "a second request with the token reads no claim again");
        assertEquals(Optional.of(42L), first.userId());
        assertEquals(Optional.of("alice"), first.username());
        assertEquals(Set.of("user", "write"), first.scopes());
        assertEquals(Optional.of("notebook"), first.clientId());
        Caller other = callers.of(identity(tokens.parse(bob)));
        assertEquals(Optional.of(43L), other.userId());
        assertEquals(Set.of("user"), other.scopes());
        assertTrue(callers.of(null).isAnonymous());
    }

    private static SecurityIdentity identity(JsonWebToken token) {
        return QuarkusSecurityIdentity.builder().setPrincipal(token).build();
    }

    @Test
    void whatFailsVerificationIsNeverRemembered() {
        VerifiedPlatformTokens tokens = (VerifiedPlatformTokens) parser;
        for (String bad : new String[] {TestTokens.userSignedByUnknownKey(42, "alice"), TestTokens.expiredUser(42, "alice"),
                TestTokens.userForAudience("urn:somebody:else", 42, "alice")}) {
            assertThrows(ParseException.class, () -> tokens.parse(bad));
            assertThrows(ParseException.class, () -> tokens.parse(bad));
            assertFalse(tokens.remembers(bad));
            given().header(PlatformClaims.HEADER, bad).get("/probe/needs-write").then().statusCode(401);
        }
    }
}
