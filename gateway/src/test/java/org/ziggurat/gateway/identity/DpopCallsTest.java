package org.ziggurat.gateway.identity;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.oauth2.sdk.dpop.DefaultDPoPProofFactory;
import com.nimbusds.oauth2.sdk.token.DPoPAccessToken;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.openid.connect.sdk.Nonce;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.ziggurat.gateway.GatewayConfig;
import org.ziggurat.gateway.UpstreamStubs;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

/**
 * DPoP at the edge (RFC 9449 §7): a token bound to a key works only with the call's proof, made by
 * that key, for that method and address and token, with a nonce a gateway issued (§9), once. The
 * proofs are the Nimbus SDK's, as a client makes them.
 */
@QuarkusTest
class DpopCallsTest {

    static final String PUBLIC = "https://api.test.example/api";
    /** The gateway's client secret in tests, from which every replica derives the nonces' key. */
    static final String SECRET = "test-gateway-secret-0123456789abcdef";

    @Inject
    Vertx vertx;
    @Inject
    GatewayConfig config;

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

    /** A proof as the Nimbus SDK makes it, with a nonce (null: none). */
    static String proof(DefaultDPoPProofFactory key, String method, URI url, String token, String nonce) throws Exception {
        return key.createDPoPJWT(method, url, new DPoPAccessToken(token), nonce == null ? null : new Nonce(nonce))
                .serialize();
    }

    /** A call's first answer, a use_dpop_nonce challenge (RFC 9449 §9): the nonce it gives. */
    static String nonceOf(String token, String proof) {
        return given().header("Authorization", "DPoP " + token).header("DPoP", proof).get("/api/people/alice").then()
                .statusCode(401).header("WWW-Authenticate", startsWith("DPoP "))
                .header("WWW-Authenticate", containsString("error=\"use_dpop_nonce\""))
                .header("WWW-Authenticate", containsString("resource_metadata="))
                .header("DPoP-Nonce", notNullValue()).body("status", equalTo(401)).extract().header("DPoP-Nonce");
    }

    @Test
    void aBoundTokenWorksOnlyWithAFreshProofOfItsKeyAndOurNonce() throws Exception {
        DefaultDPoPProofFactory key = key();
        String token = boundToken(key.getPublicJWK().computeThumbprint().toString());
        URI alice = URI.create(PUBLIC + "/people/alice");
        // As a client does: the first call without a nonce, told to use one, then again with it.
        String nonce = nonceOf(token, proof(key, "GET", alice, token, null));
        String proof = proof(key, "GET", alice, token, nonce);

        given().header("Authorization", "DPoP " + token).header("DPoP", proof).get("/api/people/alice").then().statusCode(200)
                .header("DPoP-Nonce", notNullValue())
                .body("headers.x-platform-token", notNullValue()).body("headers.authorization", nullValue())
                .body("headers.dpop", nullValue());
        // The same proof again: a replay.
        given().header("Authorization", "DPoP " + token).header("DPoP", proof).get("/api/people/alice").then().statusCode(401)
                .header("WWW-Authenticate", startsWith("DPoP ")).header("WWW-Authenticate", containsString("invalid_dpop_proof"))
                .header("DPoP-Nonce", notNullValue()).body("detail", containsString("used already"));
        // Without its proof, or as a bearer token, it is nothing.
        given().header("Authorization", "DPoP " + token).get("/api/people/alice").then().statusCode(401)
                .header("WWW-Authenticate", containsString("invalid_dpop_proof"));
        given().header("Authorization", "Bearer " + token).get("/api/people/alice").then().statusCode(401)
                .header("WWW-Authenticate", startsWith("DPoP "));
        given().queryParam("access_token", token).get("/api/people/alice").then().statusCode(401);
        // Another key's proof; a proof for another address, another method; one without the token's hash.
        given().header("Authorization", "DPoP " + token).header("DPoP", proof(key(), "GET", alice, token, nonce))
                .get("/api/people/alice").then().statusCode(401);
        given().header("Authorization", "DPoP " + token)
                .header("DPoP", proof(key, "GET", URI.create(PUBLIC + "/people/bob"), token, nonce))
                .get("/api/people/alice").then().statusCode(401);
        given().header("Authorization", "DPoP " + token).header("DPoP", proof(key, "POST", alice, token, nonce))
                .get("/api/people/alice").then().statusCode(401);
        given().header("Authorization", "DPoP " + token)
                .header("DPoP", key.createDPoPJWT("GET", alice, new Nonce(nonce)).serialize())
                .get("/api/people/alice").then().statusCode(401);
        given().header("Authorization", "DPoP " + token).header("DPoP", "not-a-proof")
                .get("/api/people/alice").then().statusCode(401);
        // A new proof with the nonce: good again.
        given().header("Authorization", "DPoP " + token).header("DPoP", proof(key, "GET", alice, token, nonce))
                .get("/api/people/alice").then().statusCode(200);
    }

    @Test
    void aNonceNoGatewayIssuedIsRefusedWithOneOfOurs() throws Exception {
        DefaultDPoPProofFactory key = key();
        String token = boundToken(key.getPublicJWK().computeThumbprint().toString());
        URI alice = URI.create(PUBLIC + "/people/alice");
        String nonce = nonceOf(token, proof(key, "GET", alice, token, null));
        byte[] bytes = Base64.getUrlDecoder().decode(nonce);
        bytes[3] ^= 1; // another issue time, under the same MAC: forged
        String forged = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        nonceOf(token, proof(key, "GET", alice, token, forged));
        nonceOf(token, proof(key, "GET", alice, token, "made-up"));
        // Issued by a gateway with another secret (not a gateway of ours), and one of ours but expired.
        DpopNonces stranger = new DpopNonces("another-secret-0123456789abcdef", 60, Clock.systemUTC());
        stranger.issueAs("127.0.0.1:1");
        nonceOf(token, proof(key, "GET", alice, token, stranger.current()));
        DpopNonces ours = new DpopNonces(SECRET, 60, Clock.offset(Clock.systemUTC(), Duration.ofSeconds(-61)));
        ours.issueAs("127.0.0.1:1");
        nonceOf(token, proof(key, "GET", alice, token, ours.current()));
    }

    @Test
    void aProofWithAnotherReplicasNonceIsCheckedAtThatReplica() throws Exception {
        // Another gateway replica: the same secret, its own run, its own peer port (any free one, as in tests).
        DpopNonces other = new DpopNonces(SECRET, 60, Clock.systemUTC());
        DpopPeers otherPeers = new DpopPeers(other, config, "127.0.0.1");
        otherPeers.start(null, vertx);
        DefaultDPoPProofFactory key = key();
        String jkt = key.getPublicJWK().computeThumbprint().toString();
        String token = boundToken(jkt);
        URI alice = URI.create(PUBLIC + "/people/alice");
        String nonce = other.current();
        SignedJWT proof = key.createDPoPJWT("GET", alice, new DPoPAccessToken(token), new Nonce(nonce));

        given().header("Authorization", "DPoP " + token).header("DPoP", proof.serialize()).get("/api/people/alice").then()
                .statusCode(200);
        // The other replica remembers it (it was asked), and this one refuses it again (it asks).
        DpopNonces.Nonce read = other.read(nonce);
        assertEquals(false, other.firstUse(read.epoch(), read.issuedAt(), jkt, proof.getJWTClaimsSet().getJWTID()));
        given().header("Authorization", "DPoP " + token).header("DPoP", proof.serialize()).get("/api/people/alice").then()
                .statusCode(401).body("detail", containsString("used already"));
        // A proof first used at the other replica is a replay here.
        SignedJWT usedThere = key.createDPoPJWT("GET", alice, new DPoPAccessToken(token), new Nonce(nonce));
        assertEquals(true, other.firstUse(read.epoch(), read.issuedAt(), jkt, usedThere.getJWTClaimsSet().getJWTID()));
        given().header("Authorization", "DPoP " + token).header("DPoP", usedThere.serialize()).get("/api/people/alice").then()
                .statusCode(401).body("detail", containsString("used already"));

        // The other replica gone: its nonces are refused, never accepted unchecked; ours works.
        otherPeers.stop(null);
        String ours = nonceOf(token, proof(key, "GET", alice, token, nonce));
        assertNotEquals(nonce, ours);
        given().header("Authorization", "DPoP " + token).header("DPoP", proof(key, "GET", alice, token, ours))
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
