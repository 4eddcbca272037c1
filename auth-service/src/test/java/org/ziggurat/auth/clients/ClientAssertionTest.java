package org.ziggurat.auth.clients;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;
import static org.ziggurat.auth.clients.ClientRegistrationTest.aliceToken;
import static org.ziggurat.auth.clients.ClientRegistrationTest.bearer;

/**
 * Clients that prove themselves with their own keys (private_key_jwt: RFC 7523, OpenID Connect Core
 * §9), registered with jwks or jwks_uri (RFC 7591): no secret is issued; an assertion must be signed
 * by a registered key, name the client as iss and sub and this server as aud, expire soon, and is
 * good once; the client's registered method is the only one it may use.
 */
@QuarkusTest
class ClientAssertionTest {

    static String issuer() {
        return given().get("/.well-known/openid-configuration").then().statusCode(200).extract().path("issuer");
    }

    static Map<String, Object> register(Map<String, Object> keys) {
        Map<String, Object> metadata = new HashMap<>(keys);
        metadata.put("client_name", "Signed batch job");
        metadata.put("grant_types", List.of("client_credentials"));
        metadata.put("scope", "user");
        metadata.put("token_endpoint_auth_method", "private_key_jwt");
        return bearer(aliceToken("admin")).body(metadata).post("/oauth/register").then().statusCode(201)
                .body("client_secret", nullValue()).body("token_endpoint_auth_method", equalTo("private_key_jwt"))
                .extract().jsonPath().getMap("$");
    }

    static String assertion(JWK key, JWSAlgorithm alg, String clientId, String audience, Instant expires, String jti)
            throws Exception {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().issuer(clientId).subject(clientId).audience(audience)
                .expirationTime(Date.from(expires)).issueTime(new Date());
        if (jti != null) {
            claims.jwtID(jti);
        }
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(alg).keyID(key.getKeyID()).type(JOSEObjectType.JWT).build(),
                claims.build());
        jwt.sign(key instanceof RSAKey rsa ? new RSASSASigner(rsa) : new ECDSASigner((ECKey) key));
        return jwt.serialize();
    }

    static String fresh(JWK key, JWSAlgorithm alg, String clientId) throws Exception {
        return assertion(key, alg, clientId, issuer() + "/oauth/token", Instant.now().plusSeconds(60), UUID.randomUUID().toString());
    }

    static ValidatableResponse token(String assertion) {
        return given().formParams(Map.of("grant_type", "client_credentials", "scope", "user", "client_assertion_type",
                ClientAssertions.TYPE, "client_assertion", assertion)).post("/oauth/token").then();
    }

    @Test
    void aClientProvesItselfWithItsRegisteredKeyOncePerAssertion() throws Exception {
        RSAKey key = new RSAKeyGenerator(2048).keyID("job-1").generate();
        Map<String, Object> registered = register(Map.of("jwks", new JWKSet(key.toPublicJWK()).toJSONObject()));
        String clientId = (String) registered.get("client_id");
        bearer((String) registered.get("registration_access_token")).get("/oauth/register/" + clientId).then()
                .statusCode(200).body("jwks.keys[0].kid", equalTo("job-1"));

        String good = fresh(key, JWSAlgorithm.RS256, clientId);
        token(good).statusCode(200).body("access_token", org.hamcrest.Matchers.notNullValue());
        token(good).statusCode(401).body("error", equalTo("invalid_client"))
                .body("error_description", containsString("used before"));
        // The issuer itself is an audience too (RFC 7523bis); another server is not.
        token(assertion(key, JWSAlgorithm.RS256, clientId, issuer(), Instant.now().plusSeconds(60), UUID.randomUUID().toString()))
                .statusCode(200);
        token(assertion(key, JWSAlgorithm.RS256, clientId, "https://other.example/token", Instant.now().plusSeconds(60),
                UUID.randomUUID().toString())).statusCode(401).body("error", equalTo("invalid_client"));
        token(assertion(key, JWSAlgorithm.RS256, clientId, issuer() + "/oauth/token", Instant.now().minusSeconds(300),
                UUID.randomUUID().toString())).statusCode(401);
        token(assertion(key, JWSAlgorithm.RS256, clientId, issuer() + "/oauth/token", Instant.now().plusSeconds(3600),
                UUID.randomUUID().toString())).statusCode(401).body("error_description", containsString("10 minutes"));
        token(assertion(key, JWSAlgorithm.RS256, clientId, issuer() + "/oauth/token", Instant.now().plusSeconds(60), null))
                .statusCode(401).body("error_description", containsString("jti"));
        // Another key, a shared-secret algorithm, another client's name: refused.
        token(fresh(new RSAKeyGenerator(2048).keyID("job-1").generate(), JWSAlgorithm.RS256, clientId)).statusCode(401);
        SignedJWT hmac = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), new JWTClaimsSet.Builder().issuer(clientId)
                .subject(clientId).audience(issuer() + "/oauth/token").expirationTime(Date.from(Instant.now().plusSeconds(60)))
                .jwtID(UUID.randomUUID().toString()).build());
        hmac.sign(new MACSigner(new byte[32]));
        token(hmac.serialize()).statusCode(401);
        given().formParams(Map.of("grant_type", "client_credentials", "client_id", "someone-else", "client_assertion_type",
                ClientAssertions.TYPE, "client_assertion", fresh(key, JWSAlgorithm.RS256, clientId))).post("/oauth/token").then()
                .statusCode(401).body("error", equalTo("invalid_client"));
        // Its registered method only: no secret, no id alone; and one method at a time.
        given().auth().preemptive().basic(clientId, "guess").formParams(Map.of("grant_type", "client_credentials"))
                .post("/oauth/token").then().statusCode(401).body("error", equalTo("invalid_client"));
        given().formParams(Map.of("grant_type", "client_credentials", "client_id", clientId)).post("/oauth/token").then()
                .statusCode(401);
        given().auth().preemptive().basic(clientId, "guess").formParams(Map.of("grant_type", "client_credentials",
                "client_assertion_type", ClientAssertions.TYPE, "client_assertion", fresh(key, JWSAlgorithm.RS256, clientId)))
                .post("/oauth/token").then().statusCode(400).body("error", equalTo("invalid_request"));
        // The other endpoints that authenticate clients take it too.
        String accessToken = token(fresh(key, JWSAlgorithm.RS256, clientId)).statusCode(200).extract().path("access_token");
        given().formParams(Map.of("token", accessToken, "client_assertion_type", ClientAssertions.TYPE, "client_assertion",
                assertion(key, JWSAlgorithm.RS256, clientId, issuer() + "/oauth/introspect", Instant.now().plusSeconds(60),
                        UUID.randomUUID().toString()))).post("/oauth/introspect").then().statusCode(200)
                .body("active", equalTo(true));
        given().formParams(Map.of("token", accessToken, "client_assertion_type", ClientAssertions.TYPE, "client_assertion",
                fresh(key, JWSAlgorithm.RS256, clientId))).post("/oauth/revoke").then().statusCode(200);
    }

    @Test
    void aClientsKeysAtItsJwksUriAreReadAgainWhenItRotates() throws Exception {
        ECKey first = new ECKeyGenerator(Curve.P_256).keyID("first").generate();
        ECKey second = new ECKeyGenerator(Curve.P_256).keyID("second").generate();
        AtomicReference<JWKSet> published = new AtomicReference<>(new JWKSet(first.toPublicJWK()));
        Vertx vertx = Vertx.vertx();
        try {
            HttpServer server = vertx.createHttpServer().requestHandler(request -> request.response()
                    .putHeader("Content-Type", "application/jwk-set+json").end(published.get().toString()))
                    .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            Map<String, Object> registered = register(Map.of("jwks_uri", "http://127.0.0.1:" + server.actualPort() + "/jwks",
                    "token_endpoint_auth_signing_alg", "ES256"));
            String clientId = (String) registered.get("client_id");
            token(fresh(first, JWSAlgorithm.ES256, clientId)).statusCode(200);
            published.set(new JWKSet(List.of(first.toPublicJWK(), second.toPublicJWK())));
            token(fresh(second, JWSAlgorithm.ES256, clientId)).statusCode(200);
            // The registered algorithm only.
            ECKey p384 = new ECKeyGenerator(Curve.P_384).keyID("p384").generate();
            published.set(new JWKSet(List.of(first.toPublicJWK(), second.toPublicJWK(), p384.toPublicJWK())));
            token(fresh(p384, JWSAlgorithm.ES384, clientId)).statusCode(401);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    /** An RSA key of 1024 bits (Nimbus's generator makes none this short). */
    static RSAKey small() throws Exception {
        java.security.KeyPairGenerator generator = java.security.KeyPairGenerator.getInstance("RSA");
        generator.initialize(1024);
        return new RSAKey.Builder((java.security.interfaces.RSAPublicKey) generator.generateKeyPair().getPublic()).build();
    }

    @Test
    void registrationsWithKeysAreChecked() throws Exception {
        RSAKey key = new RSAKeyGenerator(2048).keyID("k").generate();
        Map<String, Object> base = new HashMap<>();
        base.put("client_name", "Checked");
        base.put("grant_types", List.of("client_credentials"));
        base.put("token_endpoint_auth_method", "private_key_jwt");
        for (Map<String, Object> wrong : List.<Map<String, Object>>of(
                Map.of(),
                Map.of("jwks", new JWKSet(key).toJSONObject(false)),
                Map.of("jwks", new JWKSet(small()).toJSONObject()),
                Map.of("jwks", new JWKSet(key.toPublicJWK()).toJSONObject(), "jwks_uri", "https://keys.example.org/jwks"),
                Map.of("jwks", "not a set"),
                Map.of("jwks_uri", "ftp://keys.example.org/jwks"),
                Map.of("jwks", new JWKSet(key.toPublicJWK()).toJSONObject(), "token_endpoint_auth_signing_alg", "HS256"))) {
            Map<String, Object> metadata = new HashMap<>(base);
            metadata.putAll(wrong);
            bearer(aliceToken("admin")).body(metadata).post("/oauth/register").then().statusCode(400)
                    .body("error", equalTo("invalid_client_metadata"));
        }
        given().get("/.well-known/openid-configuration").then().body("token_endpoint_auth_methods_supported",
                hasItem("private_key_jwt")).body("token_endpoint_auth_signing_alg_values_supported", hasItem("ES256"));
    }
}
