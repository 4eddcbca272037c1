package org.ziggurat.auth.pages;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport.App;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ziggurat.auth.OAuthTestSupport.asPerson;
import static org.ziggurat.auth.OAuthTestSupport.post;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.Browser;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.CALLBACK;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.enc;

/** Pushed authorization requests (RFC 9126), optional per application and required when it says so. */
@QuarkusTest
class PushedRequestTest {

    @Inject
    Pool pool;

    static App app(boolean requirePushed) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", "Pushing app");
        body.put("redirect_uris", List.of(CALLBACK));
        body.put("scopes", "openid user");
        body.put("require_pushed_authorization_requests", requirePushed);
        body.put("password_grant", true);
        var created = asPerson(900, "owner", "admin").contentType("application/json").body(body).post("/applications")
                .then().statusCode(201).extract();
        return new App(((Number) created.path("id")).longValue(), created.path("client_id"), created.path("client_secret"));
    }

    static String push(App app, String... extra) {
        String[] pairs = new String[8 + extra.length];
        System.arraycopy(new String[] {"response_type", "code", "redirect_uri", CALLBACK, "scope", "openid", "state", "pushed-state"},
                0, pairs, 0, 8);
        System.arraycopy(extra, 0, pairs, 8, extra.length);
        return post("/oauth/par", app, pairs).statusCode(201).header("Cache-Control", "no-store")
                .body("request_uri", startsWith("urn:ietf:params:oauth:request_uri:")).body("expires_in", equalTo(60))
                .extract().path("request_uri");
    }

    static String url(App app, String requestUri) {
        return "/oauth/authorize?client_id=" + app.clientId() + "&request_uri=" + enc(requestUri);
    }

    @Test
    void aPushedRequestIsTheRequestAndIsGoodForOneCode() throws Exception {
        App app = app(true);
        String requestUri = push(app, "nonce", "pushed-nonce");
        Browser browser = new Browser();
        // Parameters in the address beside request_uri are not the request's: the pushed ones are.
        Map<String, String> answer = OpenIdConnectTest.authorize(browser, url(app, requestUri) + "&state=forged&scope=user");
        assertEquals("pushed-state", answer.get("state"));
        Map<String, Object> tokens = OpenIdConnectTest.exchange(app, answer.get("code"));
        assertEquals("openid", tokens.get("scope"));
        assertEquals("pushed-nonce", com.nimbusds.jwt.SignedJWT.parse((String) tokens.get("id_token")).getJWTClaimsSet()
                .getStringClaim("nonce"));
        // Used: the same request_uri again is an error page, never a second code.
        browser.get(url(app, requestUri)).then().statusCode(400).body(containsString("request_uri"));
    }

    @Test
    void anApplicationThatRequiresPushedRequestsTakesNoOther() {
        App app = app(true);
        new Browser().get("/oauth/authorize?response_type=code&client_id=" + app.clientId() + "&redirect_uri=" + enc(CALLBACK))
                .then().statusCode(400).header("Location", org.hamcrest.Matchers.nullValue())
                .body(containsString("RFC 9126"));
        // Nor the API form.
        String token = post("/oauth/token", app, "grant_type", "password", "username", "alice", "password",
                "alice password 1", "scope", "user").statusCode(200).extract().path("access_token");
        given().header("Authorization", "Bearer " + token).redirects().follow(false)
                .contentType("application/x-www-form-urlencoded").formParam("response_type", "code")
                .formParam("client_id", app.clientId()).formParam("client_secret", app.secret())
                .formParam("redirect_uri", CALLBACK).formParam("username", "alice").formParam("scope", "user")
                .post("/oauth/authorize").then().statusCode(400).body("error", equalTo("invalid_request"));
        // An application that does not require them takes both.
        App optional = app(false);
        assertEquals(200, new Browser().get(url(optional, push(optional))).statusCode());
        assertEquals(200, new Browser().get("/oauth/authorize?response_type=code&client_id=" + optional.clientId()
                + "&redirect_uri=" + enc(CALLBACK)).statusCode());
    }

    @Test
    void aRequestUriIsItsClientsAndExpires() {
        App app = app(false);
        App other = app(false);
        String requestUri = push(app);
        new Browser().get(url(other, requestUri)).then().statusCode(400).body(containsString("request_uri"));
        pool.query("UPDATE pushed_authorization_request SET expires_at = now() - interval '1 second'").execute().await()
                .atMost(Duration.ofSeconds(30));
        new Browser().get(url(app, requestUri)).then().statusCode(400).body(containsString("request_uri"));
        new Browser().get(url(app, "urn:ietf:params:oauth:request_uri:made-up")).then().statusCode(400);
    }

    /**
     * RFC 9126 pushes the parameters to keep them out of the front channel: the pages' hidden
     * fields and the address after signing in carry client_id and request_uri only.
     */
    @Test
    void thePushedParametersStayOffTheFrontChannel() {
        App app = app(false);
        String requestUri = push(app, "nonce", "pushed-nonce", "code_challenge", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
                "code_challenge_method", "S256");
        Browser browser = new Browser();
        io.restassured.response.Response login = browser.get(url(app, requestUri));
        assertEquals(200, login.statusCode(), login.asString());
        Map<String, String> signInForm = FederationFlowTest.formWith(login.asString(), "sign_in");
        signInForm.remove("_action");
        assertEquals(Map.of("client_id", app.clientId(), "request_uri", requestUri, "action", "login"), withoutCsrf(signInForm));
        // The buttons of other providers carry the same two, and which provider and page they are.
        Map<String, String> providerForm = FederationFlowTest.formWith(login.asString(), "provider_institution");
        providerForm.remove("_action");
        assertEquals(Map.of("client_id", app.clientId(), "request_uri", requestUri, "provider", "institution",
                "return_path", "/oauth/authorize"), withoutCsrf(providerForm));
        for (String secret : List.of("pushed-state", "pushed-nonce", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")) {
            org.junit.jupiter.api.Assertions.assertFalse(login.asString().contains(secret), secret + " is on the page");
        }
        io.restassured.response.Response signedIn = OpenIdConnectTest.signIn(browser, url(app, requestUri));
        Map<String, String> next = AuthorizeFlowTest.query(signedIn.getHeader("Location"));
        assertEquals(Map.of("client_id", app.clientId(), "request_uri", requestUri), next);
        io.restassured.response.Response consent = browser.get(AuthorizeFlowTest.relative(signedIn.getHeader("Location")));
        assertEquals(Map.of("client_id", app.clientId(), "request_uri", requestUri),
                withoutCsrf(AuthorizeFlowTest.hiddenFields(consent.asString())));
        org.junit.jupiter.api.Assertions.assertFalse(consent.asString().contains("pushed-state"));
        Map<String, String> form = AuthorizeFlowTest.hiddenFields(consent.asString());
        form.put("action", "approve");
        io.restassured.response.Response back = browser.post(form);
        assertEquals(303, back.statusCode(), back.asString());
        assertEquals("pushed-state", AuthorizeFlowTest.query(back.getHeader("Location")).get("state"));
    }

    /** A pushed prompt=login or max_age=0 is answered by one sign-in after the push: it does not loop. */
    @Test
    void aPushedPromptLoginOrMaxAgeIsAnsweredByOneSignIn() {
        App app = app(false);
        Browser browser = new Browser();
        OpenIdConnectTest.authorize(browser, url(app, push(app)));
        for (String[] asking : new String[][] {{"prompt", "login"}, {"max_age", "0"}}) {
            String requestUri = push(app, asking);
            io.restassured.response.Response page = browser.get(url(app, requestUri));
            assertEquals(200, page.statusCode(), page.asString());
            org.junit.jupiter.api.Assertions.assertTrue(page.asString().contains("id=\"sign_in\""),
                    asking[0] + "=" + asking[1] + ": signed in before the push, so the login page");
            io.restassured.response.Response signedIn = OpenIdConnectTest.signIn(browser, url(app, requestUri));
            io.restassured.response.Response answer = browser.get(AuthorizeFlowTest.relative(signedIn.getHeader("Location")));
            assertEquals(303, answer.statusCode(), asking[0] + "=" + asking[1] + " asked again: " + answer.asString());
            Map<String, String> redirected = AuthorizeFlowTest.query(answer.getHeader("Location"));
            org.junit.jupiter.api.Assertions.assertNotNull(redirected.get("code"), answer.getHeader("Location"));
            assertEquals("pushed-state", redirected.get("state"));
        }
    }

    /** A public client needs only its id to push: how many of its requests are live is capped (5 in tests). */
    @Test
    void aClientsLivePushedRequestsAreCapped() {
        App app = app(false);
        for (int i = 0; i < 5; i++) {
            push(app);
        }
        post("/oauth/par", app, "response_type", "code", "redirect_uri", CALLBACK).statusCode(429)
                .body("error", equalTo("slow_down")).header("Retry-After", "10");
        // Another client is not held by it; once one of them is over, there is room again.
        push(app(false));
        pool.preparedQuery("UPDATE pushed_authorization_request SET expires_at = now() - interval '1 second' "
                + "WHERE request_uri_hash = (SELECT request_uri_hash FROM pushed_authorization_request "
                + "WHERE application_id = $1 AND expires_at > now() LIMIT 1)").execute(io.vertx.mutiny.sqlclient.Tuple.of(app.id()))
                .await().atMost(Duration.ofSeconds(30));
        push(app);
    }

    static Map<String, String> withoutCsrf(Map<String, String> fields) {
        Map<String, String> rest = new HashMap<>(fields);
        rest.remove("csrf");
        return rest;
    }

    @Test
    void pushedRequestsAreCheckedAsTheAuthorizationEndpointChecksThem() {
        App app = app(false);
        post("/oauth/par", app, "response_type", "code", "redirect_uri", "https://evil.example.org/cb").statusCode(400)
                .body("error", equalTo("invalid_request"));
        post("/oauth/par", app, "response_type", "code", "redirect_uri", CALLBACK, "scope", "admin").statusCode(400)
                .body("error", equalTo("invalid_scope"));
        post("/oauth/par", app, "response_type", "token", "redirect_uri", CALLBACK).statusCode(400)
                .body("error", equalTo("unsupported_response_type"));
        post("/oauth/par", app, "response_type", "code", "redirect_uri", CALLBACK, "request_uri", "urn:x").statusCode(400)
                .body("error", equalTo("invalid_request"));
        post("/oauth/par", app, "response_type", "code", "redirect_uri", CALLBACK, "prompt", "none login").statusCode(400)
                .body("error", equalTo("invalid_request"));
        given().contentType("application/x-www-form-urlencoded").formParam("client_id", app.clientId())
                .formParam("response_type", "code").formParam("redirect_uri", CALLBACK).post("/oauth/par").then()
                .statusCode(401);
    }

    @Test
    void theMetadataAnnouncesTheEndpoint() {
        Response metadata = given().get("/.well-known/openid-configuration");
        metadata.then().statusCode(200).body("pushed_authorization_request_endpoint",
                equalTo("http://localhost:8080/api/oauth/par")).body("require_pushed_authorization_requests", equalTo(false))
                .body("registration_endpoint", equalTo("http://localhost:8080/api/oauth/register"))
                .body("device_authorization_endpoint", equalTo("http://localhost:8080/api/oauth/device_authorization"));
    }
}
