package org.ziggurat.auth.pages;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.OAuthTestSupport.post;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.Browser;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.CALLBACK;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.enc;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.hiddenFields;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.query;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.relative;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.signIn;

/**
 * Request objects (OpenID Connect Core §6.1): a JWT signed with a key the application registered,
 * whose parameters (a state and nonce sent only inside it) are the request's and take precedence
 * over those beside it; unsigned, signed by another key, or naming another client, an error page.
 */
@QuarkusTest
class RequestObjectTest {

    static final RSAKey KEY = key();

    static RSAKey key() {
        try {
            return new RSAKeyGenerator(2048).keyID("ro-1").generate();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static String aliceToken(String scope) {
        return post("/oauth/token", null, "grant_type", "password", "username", "alice", "password", "alice password 1",
                "scope", scope).statusCode(200).extract().path("access_token");
    }

    static io.restassured.specification.RequestSpecification bearer(String token) {
        return given().header("Authorization", "Bearer " + token).contentType("application/json");
    }

    static String register() {
        Map<String, Object> metadata = new HashMap<>();
        metadata.put("client_name", "Signed requests");
        metadata.put("redirect_uris", List.of(CALLBACK));
        metadata.put("scope", "openid profile");
        metadata.put("jwks", new JWKSet(KEY.toPublicJWK()).toJSONObject());
        metadata.put("request_object_signing_alg", "RS256");
        return bearer(aliceToken("admin")).body(metadata).post("/oauth/register").then().statusCode(201)
                .extract().path("client_id");
    }

    static String signed(RSAKey key, JWTClaimsSet claims) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    static JWTClaimsSet.Builder claims(String clientId) {
        String issuer = given().get("/.well-known/openid-configuration").then().extract().path("issuer");
        return new JWTClaimsSet.Builder().issuer(clientId).audience(issuer).claim("client_id", clientId)
                .claim("response_type", "code").claim("redirect_uri", CALLBACK).claim("scope", "openid profile")
                .claim("state", "inside-state").claim("nonce", "inside-nonce");
    }

    static String url(String clientId, String requestObject, String beside) {
        return "/oauth/authorize?client_id=" + clientId + "&response_type=code" + beside + "&request=" + enc(requestObject);
    }

    @Test
    void aSignedRequestObjectsParametersAreTheRequests() throws Exception {
        String clientId = register();
        given().get("/.well-known/openid-configuration").then().body("request_parameter_supported",
                org.hamcrest.Matchers.equalTo(true)).body("request_object_signing_alg_values_supported", hasItem("RS256"));
        Browser browser = new Browser();
        // Beside it, another state: the request object's takes precedence.
        Response afterLogin = signIn(browser, url(clientId, signed(KEY, claims(clientId).build()), "&state=outside&scope=openid"),
                "alice password 1");
        assertEquals(303, afterLogin.statusCode(), afterLogin.asString());
        Response consent = browser.get(relative(afterLogin.getHeader("Location")));
        assertEquals(200, consent.statusCode(), consent.asString());
        Map<String, String> form = hiddenFields(consent.asString());
        assertEquals("inside-nonce", form.get("nonce"));
        form.put("action", "approve");
        Response back = browser.post(form);
        assertEquals(303, back.statusCode(), back.asString());
        assertTrue(back.getHeader("Location").startsWith(CALLBACK + "?"));
        assertEquals("inside-state", query(back.getHeader("Location")).get("state"));
    }

    @Test
    void requestObjectsThatCannotBeTakenAreErrorPagesNeverRedirects() throws Exception {
        String clientId = register();
        List<String> refused = List.of(
                new PlainJWT(claims(clientId).build()).serialize(),
                signed(new RSAKeyGenerator(2048).keyID("ro-1").generate(), claims(clientId).build()),
                signed(KEY, claims(clientId).issuer("someone-else").build()),
                signed(KEY, claims(clientId).claim("client_id", "someone-else").build()),
                signed(KEY, claims(clientId).audience("https://other.example").build()),
                signed(KEY, claims(clientId).expirationTime(new java.util.Date(System.currentTimeMillis() - 600_000)).build()),
                "not-a-jwt");
        for (String requestObject : refused) {
            new Browser().get(url(clientId, requestObject, "")).then().statusCode(400).header("Location", nullValue());
        }
        new Browser().get(url(clientId, signed(KEY, claims(clientId).build()), "&request_uri="
                + enc("urn:ietf:params:oauth:request_uri:x"))).then().statusCode(400).header("Location", nullValue());
        // An application that registered no keys has no request objects.
        String keyless = bearer(aliceToken("admin")).body(Map.of("client_name", "No keys", "redirect_uris", List.of(CALLBACK),
                "scope", "openid")).post("/oauth/register").then().statusCode(201).extract().path("client_id");
        new Browser().get(url(keyless, signed(KEY, claims(keyless).build()), "")).then().statusCode(400);
    }
}
