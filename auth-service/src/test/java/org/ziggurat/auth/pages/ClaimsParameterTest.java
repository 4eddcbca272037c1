package org.ziggurat.auth.pages;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport.App;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.Browser;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.CALLBACK;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.hiddenFields;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.query;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.relative;
import static org.ziggurat.auth.pages.OpenIdConnectTest.authorize;
import static org.ziggurat.auth.pages.OpenIdConnectTest.exchange;
import static org.ziggurat.auth.pages.OpenIdConnectTest.openIdApp;
import static org.ziggurat.auth.pages.OpenIdConnectTest.url;

/**
 * The claims parameter (OpenID Connect Core §5.5): claims named for the ID token are added to it
 * when the granted scopes give them, and never beyond; a malformed one is an error page; a sub
 * value answers only for that person (§3.1.2.2); inside a request object it is a JSON object.
 */
@QuarkusTest
class ClaimsParameterTest {

    static final String ALICE = "101";

    static JWTClaimsSet idToken(App app, Map<String, String> answer) throws Exception {
        return JWTParser.parse((String) exchange(app, answer.get("code")).get("id_token")).getJWTClaimsSet();
    }

    @Test
    void claimsNamedForTheIdTokenAreAddedWithinTheGrantedScopes() throws Exception {
        given().get("/.well-known/openid-configuration").then().body("claims_parameter_supported", equalTo(true));
        App app = openIdApp(null);
        Browser browser = new Browser();
        JWTClaimsSet plain = idToken(app, authorize(browser, url(app, "scope", "openid profile")));
        assertNull(plain.getClaim("name"), "without the claims parameter, the ID token carries no profile claims");

        String claims = "{\"id_token\": {\"name\": null, \"preferred_username\": {\"essential\": true}, "
                + "\"email\": {\"essential\": true}, \"auth_time\": {\"essential\": true}}, \"userinfo\": {\"email\": null}}";
        Map<String, String> answer = authorize(browser, url(app, "scope", "openid profile", "claims", claims));
        Map<String, Object> tokens = exchange(app, answer.get("code"));
        JWTClaimsSet asked = JWTParser.parse((String) tokens.get("id_token")).getJWTClaimsSet();
        assertEquals("ALICE", asked.getStringClaim("name"));
        assertEquals("alice", asked.getStringClaim("preferred_username"));
        assertNotNull(asked.getClaim("auth_time"));
        assertEquals(ALICE, asked.getSubject());
        // The email scope was not granted: asking for the claim (even as essential) does not give it (§5.5.1).
        assertNull(asked.getClaim("email"));
        given().header("Authorization", "Bearer " + tokens.get("access_token")).get("/oauth/userinfo").then()
                .statusCode(200).body("name", equalTo("ALICE")).body("email", nullValue());
    }

    @Test
    void aClaimsParameterThatIsNotTheStandardsIsAnErrorPageNeverARedirect() {
        App app = openIdApp(null);
        for (String bad : List.of("not json", "[]", "{\"id_token\": []}", "{\"id_token\": {\"name\": 5}}",
                "{\"userinfo\": {\"name\": {\"essential\": \"yes\"}}}", "{\"id_token\": {\"acr\": {\"values\": \"x\"}}}")) {
            Response page = new Browser().get(url(app, "scope", "openid", "claims", bad));
            page.then().statusCode(400).header("Location", nullValue());
            assertTrue(page.asString().contains("claims"), page.asString());
        }
        // Too long for the pages to carry (an address that long is refused before: posted, as Core §3.1.2.1 allows).
        Map<String, String> posted = new HashMap<>(Map.of("response_type", "code", "client_id", app.clientId(),
                "redirect_uri", CALLBACK, "scope", "openid",
                "claims", "{\"id_token\": {\"name\": {\"value\": \"" + "y".repeat(5000) + "\"}}}"));
        Response page = new Browser().post(posted);
        page.then().statusCode(400).header("Location", nullValue());
        assertTrue(page.asString().contains("claims is too long"), page.asString());
    }

    @Test
    void aSubValueAnswersOnlyForThatPerson() throws Exception {
        App app = openIdApp(null);
        Browser browser = new Browser();
        authorize(browser, url(app, "scope", "openid"));
        String someoneElse = "{\"id_token\": {\"sub\": {\"value\": \"102\"}}}";
        // Signed in as alice, the client asks for bob: without a page, login_required (the client is consented to).
        Response silent = browser.get(url(app, "scope", "openid", "prompt", "none", "claims", someoneElse));
        assertEquals(303, silent.statusCode(), silent.asString());
        assertEquals("login_required", query(silent.getHeader("Location")).get("error"));
        // With pages: the sign-in page, for bob to sign in; never a code for alice.
        Response page = browser.get(url(app, "scope", "openid", "claims", someoneElse));
        assertEquals(200, page.statusCode(), page.asString());
        assertTrue(page.asString().contains("id=\"sign_in\""), page.asString());
        Map<String, String> form = hiddenFields(page.asString());
        form.put("login", "alice");
        form.put("password", "alice password 1");
        Response again = browser.get(relative(browser.post(form).getHeader("Location")));
        assertTrue(again.asString().contains("id=\"sign_in\""), "alice signing in again is still not bob");
        // Asking for alice herself: her code, her ID token.
        Map<String, String> answer = authorize(browser, url(app, "scope", "openid", "prompt", "none",
                "claims", "{\"id_token\": {\"sub\": {\"value\": \"" + ALICE + "\"}}}"));
        assertEquals(ALICE, idToken(app, answer).getSubject());
    }

    @Test
    void aRequestObjectCarriesClaimsAsAJsonObjectPushedOrNot() throws Exception {
        Map<String, Object> metadata = new HashMap<>();
        metadata.put("client_name", "Signed claims");
        metadata.put("redirect_uris", List.of(CALLBACK));
        metadata.put("scope", "openid profile");
        metadata.put("jwks", new JWKSet(RequestObjectTest.KEY.toPublicJWK()).toJSONObject());
        var registered = RequestObjectTest.bearer(RequestObjectTest.aliceToken("admin")).body(metadata)
                .post("/oauth/register").then().statusCode(201).extract();
        String clientId = registered.path("client_id");
        App app = new App(0, clientId, registered.path("client_secret"));
        Map<String, Object> name = new HashMap<>();
        name.put("name", null);
        String requestObject = RequestObjectTest.signed(RequestObjectTest.KEY, RequestObjectTest.claims(clientId)
                .claim("claims", Map.of("id_token", name)).build());

        Map<String, String> answer = authorize(new Browser(), RequestObjectTest.url(clientId, requestObject, ""));
        assertEquals("inside-state", answer.get("state"));
        assertEquals("ALICE", idToken(app, answer).getStringClaim("name"));

        // RFC 9126 §3: pushed, the request object is taken at the push; the browser carries only the request_uri.
        String pushedObject = RequestObjectTest.signed(RequestObjectTest.KEY, RequestObjectTest.claims(clientId)
                .claim("nonce", "pushed-nonce").claim("claims", Map.of("id_token", name)).build());
        String requestUri = org.ziggurat.auth.OAuthTestSupport.post("/oauth/par", app, "client_id", clientId,
                "response_type", "code", "request", pushedObject).statusCode(201).extract().path("request_uri");
        Map<String, String> pushed = authorize(new Browser(), "/oauth/authorize?client_id=" + clientId + "&request_uri="
                + AuthorizeFlowTest.enc(requestUri));
        assertEquals("inside-state", pushed.get("state"));
        JWTClaimsSet idToken = idToken(app, pushed);
        assertEquals("ALICE", idToken.getStringClaim("name"));
        assertEquals("pushed-nonce", idToken.getStringClaim("nonce"));
        // A request object that cannot be taken is the push's error, not a stored request.
        org.ziggurat.auth.OAuthTestSupport.post("/oauth/par", app, "client_id", clientId, "response_type", "code",
                "request", "not-a-jwt").statusCode(400).body("error", equalTo("invalid_request_object"));
        assertFalse(pushed.containsKey("error"));
    }
}
