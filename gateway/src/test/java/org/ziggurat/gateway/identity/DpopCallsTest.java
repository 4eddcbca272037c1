package org.ziggurat.gateway.identity;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.oauth2.sdk.dpop.DefaultDPoPProofFactory;
import com.nimbusds.oauth2.sdk.token.DPoPAccessToken;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.ziggurat.gateway.UpstreamStubs;

import java.net.URI;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

/**
 * DPoP at the edge (RFC 9449 §7): a token bound to a key works only with the call's proof, made by
 * that key, for that method and address and token, once. The proofs are the Nimbus SDK's, as a
 * client makes them.
 */
@QuarkusTest
class DpopCallsTest {

    static final String PUBLIC = "https://api.test.example/api";

    /** A token the auth-service stand-in reports active and bound to the key of {@code jkt}. */
    static String boundToken(String jkt) {
        String token = "zat_" + UUID.randomUUID();
        long now = Instant.now().getEpochSecond();
        given().contentType("application/json").body(Map.of("active", true, "scope", "user", "client_id", "NotebookClient000001",
                        "username", "alice", "sub", "42", "token_type", "DPoP", "exp", now + 3600, "iat", now,
                        "cnf", Map.of("jkt", jkt)))
                .put(UpstreamStubs.authStub() + "/__stub/tokens/" + token).then().statusCode(204);
        return token;
    }

    static DefaultDPoPProofFactory key() throws Exception {
        return new DefaultDPoPProofFactory(new ECKeyGenerator(Curve.P_256).generate(), JWSAlgorithm.ES256);
    }

    @Test
    void aBoundTokenWorksOnlyWithAFreshProofOfItsKey() throws Exception {
        DefaultDPoPProofFactory key = key();
        String token = boundToken(key.getPublicJWK().computeThumbprint().toString());
        URI alice = URI.create(PUBLIC + "/people/alice");
        String proof = key.createDPoPJWT("GET", alice, new DPoPAccessToken(token)).serialize();

        given().header("Authorization", "DPoP " + token).header("DPoP", proof).get("/api/people/alice").then().statusCode(200)
                .body("headers.x-platform-token", notNullValue()).body("headers.authorization", nullValue())
                .body("headers.dpop", nullValue());
        // The same proof again, on whichever replica: a replay.
        given().header("Authorization", "DPoP " + token).header("DPoP", proof).get("/api/people/alice").then().statusCode(401)
                .header("WWW-Authenticate", startsWith("DPoP ")).header("WWW-Authenticate", containsString("invalid_dpop_proof"))
                .body("detail", containsString("used already"));
        // Without its proof, or as a bearer token, it is nothing.
        given().header("Authorization", "DPoP " + token).get("/api/people/alice").then().statusCode(401)
                .header("WWW-Authenticate", containsString("invalid_dpop_proof"));
        given().header("Authorization", "Bearer " + token).get("/api/people/alice").then().statusCode(401)
                .header("WWW-Authenticate", startsWith("DPoP "));
        given().queryParam("access_token", token).get("/api/people/alice").then().statusCode(401);
        // Another key's proof; a proof for another address, another method; one without the token's hash.
        given().header("Authorization", "DPoP " + token)
                .header("DPoP", key().createDPoPJWT("GET", alice, new DPoPAccessToken(token)).serialize())
                .get("/api/people/alice").then().statusCode(401);
        given().header("Authorization", "DPoP " + token)
                .header("DPoP", key.createDPoPJWT("GET", URI.create(PUBLIC + "/people/bob"), new DPoPAccessToken(token)).serialize())
                .get("/api/people/alice").then().statusCode(401);
        given().header("Authorization", "DPoP " + token)
                .header("DPoP", key.createDPoPJWT("POST", alice, new DPoPAccessToken(token)).serialize())
                .get("/api/people/alice").then().statusCode(401);
        given().header("Authorization", "DPoP " + token).header("DPoP", key.createDPoPJWT("GET", alice).serialize())
                .get("/api/people/alice").then().statusCode(401);
        given().header("Authorization", "DPoP " + token).header("DPoP", "not-a-proof")
                .get("/api/people/alice").then().statusCode(401);
        // A new proof: good again.
        given().header("Authorization", "DPoP " + token)
                .header("DPoP", key.createDPoPJWT("GET", alice, new DPoPAccessToken(token)).serialize())
                .get("/api/people/alice").then().statusCode(200);
    }

    @Test
    void aBearerTokenSentAsDpopIsRefused() throws Exception {
        String token = GatewayIdentityTest.activeToken("user");
        DefaultDPoPProofFactory key = key();
        given().header("Authorization", "DPoP " + token)
                .header("DPoP", key.createDPoPJWT("GET", URI.create(PUBLIC + "/people/alice"), new DPoPAccessToken(token))
                        .serialize())
                .get("/api/people/alice").then().statusCode(401).body("detail", containsString("not bound"));
        given().header("Authorization", "Bearer " + token).get("/api/people/alice").then().statusCode(200);
    }
}
