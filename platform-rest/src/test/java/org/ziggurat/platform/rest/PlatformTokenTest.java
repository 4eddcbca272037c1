package org.ziggurat.platform.rest;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.PlatformTestKeys;
import org.ziggurat.platform.testing.TestTokens;
import org.ziggurat.platform.token.PlatformClaims;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;

/** The platform token as every service receives it: who may state what, with which key. */
@QuarkusTest
@QuarkusTestResource(PlatformTestKeys.class)
class PlatformTokenTest {

    @Test
    void noTokenIsAnonymous() {
        given().get("/probe/whoami").then().statusCode(200).body("kind", equalTo("anonymous"));
    }

    @Test
    void userSignedByTheGatewayIsAccepted() {
        given().header(PlatformClaims.HEADER, TestTokens.userWithClient(42, "alice", "abcdefghij0123456789", "public", "write"))
                .get("/probe/whoami")
                .then().statusCode(200)
                .body("kind", equalTo("user"))
                .body("user_id", equalTo("42"))
                .body("username", equalTo("alice"))
                .body("client_id", equalTo("abcdefghij0123456789"))
                .body("scopes", containsInAnyOrder("public", "write"))
                .body("second_factor", equalTo(false));
    }

    @Test
    void theSignInsClassComesWithThePerson() {
        given().header(PlatformClaims.HEADER, TestTokens.userWithSecondFactor(42, "alice", "user"))
                .get("/probe/whoami").then().statusCode(200).body("second_factor", equalTo(true));
        given().header(PlatformClaims.HEADER, TestTokens.userWithSecondFactor(42, "alice", "user"))
                .get("/probe/strict-organization").then().statusCode(200);
        // RFC 9470: a token whose sign-in falls short is a 401 that says what sign-in would do.
        given().header(PlatformClaims.HEADER, TestTokens.user(42, "alice", "user"))
                .get("/probe/strict-organization").then().statusCode(401)
                .contentType("application/problem+json")
                .body("title", equalTo("Insufficient User Authentication"))
                .header("WWW-Authenticate", org.hamcrest.Matchers.allOf(
                        org.hamcrest.Matchers.startsWith("Bearer error=\"insufficient_user_authentication\""),
                        org.hamcrest.Matchers.endsWith("acr_values=\"https://refeds.org/profile/mfa\"")));
    }

    @Test
    void serviceSignedByItsOwnKeyIsAccepted() {
        given().header(PlatformClaims.HEADER, TestTokens.service("auth-service"))
                .get("/probe/internal-only")
                .then().statusCode(200).body("service", equalTo("auth-service"));
    }

    @Test
    void unknownKeyIsRefused() {
        refused(TestTokens.userSignedByUnknownKey(42, "alice"));
    }

    @Test
    void expiredTokenIsRefused() {
        refused(TestTokens.expiredUser(42, "alice"));
    }

    @Test
    void wrongAudienceIsRefused() {
        refused(TestTokens.userForAudience("urn:somebody:else", 42, "alice"));
    }

    @Test
    void wrongIssuerIsRefused() {
        refused(TestTokens.userFromIssuer("https://evil.example", 42, "alice"));
    }

    @Test
    void userIdentityNotSignedByTheGatewayIsRefused() {
        // auth-service's key is trusted, but only for what auth-service says of itself.
        refused(TestTokens.userSignedBy("auth-service", 42, "alice", "admin"));
    }

    @Test
    void serviceClaimingAnotherServiceIsRefused() {
        refused(TestTokens.serviceSignedBy("vocab-service", "auth-service"));
    }

    @Test
    void tokenIssuedForTooLongIsRefused() {
        long now = java.time.Instant.now().getEpochSecond();
        String longLived = TestTokens.userClaims(42, "alice", null).expiresAt(now + 86_400).jws()
                .keyId(kidOfGateway()).algorithm(io.smallrye.jwt.algorithm.SignatureAlgorithm.RS256)
                .sign(gatewayKey());
        refused(longLived);
    }

    @Test
    void garbageIsRefused() {
        refused("not-a-jwt");
        refused("eyJhbGciOiJub25lIn0.eyJzdWIiOiI0MiJ9.");
    }

    @Test
    void scopeAndServiceRequirementsAnswerProblems() {
        given().get("/probe/needs-write").then().statusCode(401)
                .contentType("application/problem+json").body("status", equalTo(401))
                .header("WWW-Authenticate", equalTo("Bearer"));
        given().header(PlatformClaims.HEADER, TestTokens.user(42, "alice", "public"))
                .get("/probe/needs-write").then().statusCode(403)
                .contentType("application/problem+json").body("detail", equalTo("The access token lacks the 'write' scope."));
        given().header(PlatformClaims.HEADER, TestTokens.user(42, "alice", "write"))
                .get("/probe/needs-write").then().statusCode(200).body("user_id", equalTo(42));
        given().header(PlatformClaims.HEADER, TestTokens.user(42, "alice", "admin"))
                .get("/probe/internal-only").then().statusCode(403);
    }

    @Test
    void theAuthorizationHeaderIsNotReadAsAPlatformToken() {
        // An external access token (or a platform token in the wrong place) is not an identity here.
        given().header("Authorization", "Bearer " + TestTokens.user(42, "alice", "admin"))
                .get("/probe/whoami").then().statusCode(200).body("kind", equalTo("anonymous"));
    }

    private static void refused(String token) {
        given().header(PlatformClaims.HEADER, token)
                .get("/probe/whoami")
                .then().statusCode(401)
                .contentType("application/problem+json")
                .body("status", equalTo(401))
                .header("WWW-Authenticate", org.hamcrest.Matchers.startsWith("Bearer"));
    }

    private static java.security.interfaces.RSAPrivateCrtKey gatewayKey() {
        try {
            return org.ziggurat.platform.token.PlatformKeys.readPrivateKey(
                    PlatformTestKeys.dir().resolve("gateway" + org.ziggurat.platform.token.PlatformKeys.PRIVATE_SUFFIX));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String kidOfGateway() {
        try {
            return org.ziggurat.platform.token.PlatformKeys.keyId("gateway",
                    org.ziggurat.platform.token.PlatformKeys.publicKeyOf(gatewayKey()));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
