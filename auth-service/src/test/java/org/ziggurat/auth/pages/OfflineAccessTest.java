package org.ziggurat.auth.pages;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport.App;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.OAuthTestSupport.asPerson;
import static org.ziggurat.auth.OAuthTestSupport.introspect;
import static org.ziggurat.auth.OAuthTestSupport.post;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.Browser;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.CALLBACK;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.hiddenFields;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.query;
import static org.ziggurat.auth.pages.OpenIdConnectTest.authorize;
import static org.ziggurat.auth.pages.OpenIdConnectTest.exchange;
import static org.ziggurat.auth.pages.OpenIdConnectTest.url;

/**
 * OpenID Connect Core §11: {@code offline_access}. Without it, an OpenID Connect client's tokens end
 * with the person's session (signing out revokes them; they never outlive the session); with it,
 * after the person consented to exactly that, they outlive the session.
 */
@QuarkusTest
class OfflineAccessTest {

    static final Duration SESSION = Duration.ofHours(12);
    static final Duration AUTHORIZATION = Duration.ofDays(90);

    @Inject
    Pool pool;

    static App app() {
        Map<String, Object> body = new HashMap<>();
        body.put("name", "Agent");
        body.put("redirect_uris", List.of(CALLBACK));
        body.put("scopes", "openid profile user offline_access");
        body.put("post_logout_redirect_uris", List.of(OpenIdConnectTest.LOGGED_OUT));
        body.put("password_grant", true);
        var created = asPerson(900, "owner", "admin").contentType("application/json").body(body).post("/applications")
                .then().statusCode(201).extract();
        return new App(((Number) created.path("id")).longValue(), created.path("client_id"), created.path("client_secret"));
    }

    static io.restassured.response.ValidatableResponse refresh(App app, Object refreshToken) {
        return post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token", (String) refreshToken);
    }

    static long authorizationEnd(Object token) {
        return introspect((String) token).statusCode(200).body("active", equalTo(true)).extract().jsonPath()
                .getLong("authorization_exp");
    }

    static void near(Instant expected, long actual) {
        assertTrue(Math.abs(expected.getEpochSecond() - actual) < 120, "expected about " + expected + ", was "
                + Instant.ofEpochSecond(actual));
    }

    static void signOut(Browser browser, Object idToken) {
        browser.get("/oauth/logout?id_token_hint=" + idToken).then().statusCode(200)
                .body(containsString("id=\"signed_out\""));
    }

    @Test
    void withoutOfflineAccessTheTokensEndWithTheSession() {
        App app = app();
        Browser browser = new Browser();
        Map<String, Object> tokens = exchange(app, authorize(browser, url(app, "scope", "openid user")).get("code"));
        near(Instant.now().plus(SESSION), authorizationEnd(tokens.get("refresh_token")));
        Map<String, Object> refreshed = refresh(app, tokens.get("refresh_token")).statusCode(200).extract().jsonPath().getMap("$");
        near(Instant.now().plus(SESSION), authorizationEnd(refreshed.get("refresh_token")));

        signOut(browser, tokens.get("id_token"));
        introspect((String) refreshed.get("access_token")).body("active", equalTo(false));
        introspect((String) refreshed.get("refresh_token")).body("active", equalTo(false));
        given().auth().oauth2((String) refreshed.get("access_token")).get("/oauth/userinfo").then().statusCode(401);
        refresh(app, refreshed.get("refresh_token")).statusCode(400).body("error", equalTo("invalid_grant"));
    }

    @Test
    void offlineAccessAsksForConsentAndOutlivesTheSession() {
        App app = app();
        Browser browser = new Browser();
        // The first sign-in and consent, without offline_access.
        Map<String, Object> online = exchange(app, authorize(browser, url(app, "scope", "openid user")).get("code"));

        // That consent does not cover offline_access: not silently, and the page says what it means.
        Response silent = browser.get(url(app, "scope", "openid user offline_access", "prompt", "none"));
        assertEquals(303, silent.statusCode(), silent.asString());
        assertEquals("consent_required", query(silent.getHeader("Location")).get("error"));
        Response consent = browser.get(url(app, "scope", "openid user offline_access"));
        consent.then().statusCode(200).body(containsString("id=\"approve\""))
                .body(containsString("keep this access while you are away"));
        Map<String, String> form = hiddenFields(consent.asString());
        form.put("action", "approve");
        Response approved = browser.post(form);
        assertEquals(303, approved.statusCode(), approved.asString());
        Map<String, Object> offline = exchange(app, query(approved.getHeader("Location")).get("code"));
        assertEquals("user openid offline_access", offline.get("scope"));
        near(Instant.now().plus(AUTHORIZATION), authorizationEnd(offline.get("refresh_token")));

        // Signing out ends the online authorization and leaves the offline one.
        signOut(browser, online.get("id_token"));
        refresh(app, online.get("refresh_token")).statusCode(400).body("error", equalTo("invalid_grant"));
        Map<String, Object> later = refresh(app, offline.get("refresh_token")).statusCode(200).extract().jsonPath().getMap("$");
        given().auth().oauth2((String) later.get("access_token")).get("/oauth/userinfo").then().statusCode(200)
                .body("sub", equalTo("101"));
    }

    @Test
    void aCodeGivenInASessionThatEndedIssuesNothing() {
        App app = app();
        Browser browser = new Browser();
        Map<String, Object> first = exchange(app, authorize(browser, url(app, "scope", "openid")).get("code"));
        // Consented already: the second code comes at once, in the same session.
        String code = authorize(browser, url(app, "scope", "openid")).get("code");
        signOut(browser, first.get("id_token"));
        post("/oauth/token", app, "grant_type", "authorization_code", "code", code, "redirect_uri", CALLBACK)
                .statusCode(400).body("error", equalTo("invalid_grant"))
                .body("error_description", containsString("signed out"));
    }

    @Test
    void thePasswordGrantHasNoSessionToEndWithSoItLastsASessionsTime() {
        App app = app();
        Map<String, Object> online = post("/oauth/token", app, "grant_type", "password", "username", "alice", "password",
                "alice password 1", "scope", "openid user").statusCode(200).extract().jsonPath().getMap("$");
        near(Instant.now().plus(SESSION), authorizationEnd(online.get("refresh_token")));
        Map<String, Object> offline = post("/oauth/token", app, "grant_type", "password", "username", "alice", "password",
                "alice password 1", "scope", "openid offline_access").statusCode(200).extract().jsonPath().getMap("$");
        near(Instant.now().plus(AUTHORIZATION), authorizationEnd(offline.get("refresh_token")));
        // Plain OAuth (no openid) is not OpenID Connect's to shorten.
        Map<String, Object> oauth = post("/oauth/token", app, "grant_type", "password", "username", "alice", "password",
                "alice password 1", "scope", "user").statusCode(200).extract().jsonPath().getMap("$");
        near(Instant.now().plus(AUTHORIZATION), authorizationEnd(oauth.get("refresh_token")));
    }

    @Test
    void aDeviceApprovedInASessionEndsWithIt() {
        App app = DeviceFlowTest.tool("openid user offline_access");
        DeviceFlowTest.Person alice = new DeviceFlowTest.Person();
        Map<String, Object> online = approvedDevice(app, alice, "openid user");
        Map<String, Object> offline = approvedDevice(app, alice, "openid offline_access");
        near(Instant.now().plus(SESSION), authorizationEnd(online.get("refresh_token")));
        near(Instant.now().plus(AUTHORIZATION), authorizationEnd(offline.get("refresh_token")));

        signOut(alice.browser, online.get("id_token"));
        introspect((String) online.get("access_token")).body("active", equalTo(false));
        post("/oauth/token", null, "grant_type", "refresh_token", "client_id", app.clientId(), "refresh_token",
                (String) online.get("refresh_token")).statusCode(400).body("error", equalTo("invalid_grant"));
        post("/oauth/token", null, "grant_type", "refresh_token", "client_id", app.clientId(), "refresh_token",
                (String) offline.get("refresh_token")).statusCode(200);
    }

    private Map<String, Object> approvedDevice(App app, DeviceFlowTest.Person person, String scope) {
        Map<String, Object> started = DeviceFlowTest.start(app, scope);
        String complete = "/oauth/device?user_code=" + started.get("user_code");
        Response codePage = person.cookies.containsKey(org.ziggurat.auth.authorization.LoginSessions.COOKIE)
                ? person.get(complete) : person.signIn(complete);
        Response confirmation = person.sendFilledIn(codePage);
        if (scope.contains("offline_access")) {
            confirmation.then().body(containsString("keep this access while you are away"));
        } else {
            confirmation.then().body(not(containsString("keep this access while you are away")));
        }
        person.answer(confirmation, "approve").then().statusCode(200).body(containsString("id=\"device_done\""));
        pool.query("UPDATE device_authorization SET last_polled_at = now() - interval '1 hour'").execute()
                .await().atMost(DeviceFlowTest.WAIT);
        return DeviceFlowTest.poll(app, started.get("device_code")).statusCode(200).extract().jsonPath().getMap("$");
    }

    @Test
    void discoveryListsOfflineAccess() {
        given().get("/.well-known/openid-configuration").then().statusCode(200)
                .body("scopes_supported", hasItem("offline_access"));
    }
}
