package org.ziggurat.auth.pages;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport.App;
import org.ziggurat.auth.oauth.Pkce;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.OAuthTestSupport.asPerson;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.Browser;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.authorizeUrl;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.hiddenFields;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.query;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.relative;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.signIn;

/** Native apps (RFC 8252): a private-use scheme for public clients, and loopback redirects on any port. */
@QuarkusTest
class NativeAppsTest {

    static final String VERIFIER = "native-app-verifier-0123456789-0123456789-0123456789";
    static final String PRIVATE_USE = "edu.kit.data.oidc-agent:/redirect";

    static io.restassured.response.ValidatableResponse create(boolean confidential, List<String> redirectUris) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", "Token agent");
        body.put("redirect_uris", redirectUris);
        body.put("scopes", "user");
        body.put("confidential", confidential);
        return asPerson(900, "owner", "admin").contentType("application/json").body(body).post("/applications").then();
    }

    /** Through sign-in and consent (when not given before): where the browser is sent with the code. */
    static String codeRedirect(App app, String redirectUri) {
        Browser browser = new Browser();
        String url = authorizeUrl(app, redirectUri, "user", "native", Pkce.s256(VERIFIER));
        Response signedIn = signIn(browser, url, "alice password 1");
        assertEquals(303, signedIn.statusCode(), signedIn.asString());
        Response consent = browser.get(relative(signedIn.getHeader("Location")));
        if (consent.statusCode() == 303) {
            return consent.getHeader("Location"); // consented before: straight back with the code
        }
        assertEquals(200, consent.statusCode(), consent.asString());
        Map<String, String> form = hiddenFields(consent.asString());
        form.put("action", "approve");
        Response back = browser.post(form);
        assertEquals(303, back.statusCode(), back.asString());
        if (redirectUri.equals(PRIVATE_USE)) {
            // The consent form may lead to the app's scheme (CSP form-action), and only there.
            consent.then().header("Content-Security-Policy", containsString("form-action 'self' edu.kit.data.oidc-agent:;"));
        }
        return back.getHeader("Location");
    }

    @Test
    void aPublicClientSignsInThroughItsSchemeOrAnyLoopbackPort() {
        var created = create(false, List.of(PRIVATE_USE, "http://127.0.0.1/cb")).statusCode(201).extract();
        App app = new App(((Number) created.path("id")).longValue(), created.path("client_id"), null);

        String viaScheme = codeRedirect(app, PRIVATE_USE);
        assertTrue(viaScheme.startsWith(PRIVATE_USE + "?code="), viaScheme);

        String viaLoopback = codeRedirect(app, "http://127.0.0.1:54321/cb");
        assertTrue(viaLoopback.startsWith("http://127.0.0.1:54321/cb?code="), viaLoopback);
        given().contentType("application/x-www-form-urlencoded").formParam("grant_type", "authorization_code")
                .formParam("client_id", app.clientId()).formParam("code", query(viaLoopback).get("code"))
                .formParam("redirect_uri", "http://127.0.0.1:54321/cb").formParam("code_verifier", VERIFIER)
                .post("/oauth/token").then().statusCode(200).contentType(containsString("application/json"));

        // Another path, or a loopback name instead of an IP literal, is no registered redirect.
        new Browser().get(authorizeUrl(app, "http://127.0.0.1:54321/other", "user", "s", Pkce.s256(VERIFIER))).then()
                .statusCode(400).header("Location", org.hamcrest.Matchers.nullValue());
        new Browser().get(authorizeUrl(app, "http://localhost:54321/cb", "user", "s", Pkce.s256(VERIFIER))).then()
                .statusCode(400);
    }

    @Test
    void aConfidentialClientMayNotUseAPrivateUseScheme() {
        create(true, List.of("https://app.example.org/cb", PRIVATE_USE)).statusCode(422)
                .body("errors.field", hasItem("redirect_uris[1]"));
        create(false, List.of("javascript:alert(1)")).statusCode(422).body("errors.field", hasItem("redirect_uris[0]"));
        create(false, List.of("myapp:/cb")).statusCode(422);
    }
}
