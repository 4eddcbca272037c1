package org.ziggurat.auth.pages;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.DirectoryDouble;
import org.ziggurat.auth.OAuthTestSupport.App;

import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.OAuthTestSupport.aliceTokens;
import static org.ziggurat.auth.OAuthTestSupport.createApp;
import static org.ziggurat.auth.OAuthTestSupport.introspect;
import static org.ziggurat.auth.OAuthTestSupport.post;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.Browser;
import static org.ziggurat.auth.pages.OpenIdConnectTest.signIn;
import static org.ziggurat.auth.pages.OpenIdConnectTest.url;

/**
 * "Forgot your password?" on the pages (the directory is its double): the same answer for any
 * login, 429 when the address asked too often; the link's page changes nothing until its form is
 * sent; a new password signs the person out everywhere: tokens of every application, sessions.
 */
@QuarkusTest
class PasswordRecoveryPageTest {

    @jakarta.inject.Inject
    org.ziggurat.auth.authorization.PendingSignIns pendingSignIns;

    static Response form(String path, Map<String, String> fields) {
        return given().contentType("application/x-www-form-urlencoded").formParams(fields).post(path);
    }

    @Test
    void theSignInPageLeadsToTheFormAndAnyLoginGetsTheSameAnswer() {
        App app = createApp(true, "user", "https://app.example.org/callback");
        Response login = new Browser().get("/oauth/authorize?response_type=code&client_id=" + app.clientId()
                + "&redirect_uri=https%3A%2F%2Fapp.example.org%2Fcallback&scope=user");
        assertTrue(login.asString().contains("id=\"forgot_password\""), login.asString());
        assertTrue(login.asString().contains("/account/password/recovery"));
        given().get("/account/password/recovery").then().statusCode(200)
                .header("Referrer-Policy", equalTo("no-referrer"));
        Response known = form("/account/password/recovery", Map.of("login", "alice"));
        Response unknown = form("/account/password/recovery", Map.of("login", "nobody-at-all"));
        assertEquals(200, known.statusCode());
        assertEquals(200, unknown.statusCode());
        assertTrue(known.asString().contains("id=\"recovery_asked\""));
        assertEquals(known.asString(), unknown.asString(), "nothing tells who has an account");
        Response throttled = form("/account/password/recovery", Map.of("login", DirectoryDouble.RECOVERY_THROTTLED));
        assertEquals(429, throttled.statusCode());
        assertEquals("120", throttled.getHeader("Retry-After"));
        assertEquals(400, form("/account/password/recovery", Map.of("login", " ")).statusCode());
    }

    @Test
    void aNewPasswordSignsThePersonOutEverywhere() {
        App app = createApp(true, "user", "https://app.example.org/callback");
        Map<String, Object> tokens = aliceTokens(app, "user");
        Browser browser = new Browser();
        signIn(browser, url(OpenIdConnectTest.openIdApp(null), "scope", "openid"));
        assertTrue(browser.get("/account/security").asString().contains("id=\"change_password\""), "signed in");

        int before = DirectoryDouble.PASSWORD_RESETS.get();
        Response page = given().get("/account/password/reset?token=" + DirectoryDouble.RECOVERY_TOKEN);
        assertEquals(200, page.statusCode());
        assertTrue(page.asString().contains("id=\"set_password\""));
        assertEquals(before, DirectoryDouble.PASSWORD_RESETS.get(), "a GET sets nothing");
        introspect((String) tokens.get("access_token")).body("active", equalTo(true));

        assertEquals(422, form("/account/password/reset", Map.of("token", DirectoryDouble.RECOVERY_TOKEN,
                "password", "a long new passphrase", "password_again", "another one")).statusCode());
        assertEquals(422, form("/account/password/reset", Map.of("token", DirectoryDouble.RECOVERY_TOKEN,
                "password", "short", "password_again", "short")).statusCode());
        Response done = form("/account/password/reset", Map.of("token", DirectoryDouble.RECOVERY_TOKEN,
                "password", "a long new passphrase", "password_again", "a long new passphrase"));
        assertEquals(200, done.statusCode(), done.asString());
        assertTrue(done.asString().contains("id=\"password_reset\""));

        // Every token of the person, whatever its application, and the session, are gone.
        introspect((String) tokens.get("access_token")).body("active", equalTo(false));
        post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token", (String) tokens.get("refresh_token"))
                .statusCode(400).body("error", equalTo("invalid_grant"));
        assertTrue(browser.get("/account/security").asString().contains("id=\"sign_in\""), "the session ended");

        Response again = form("/account/password/reset", Map.of("token", DirectoryDouble.RECOVERY_TOKEN,
                "password", "a long new passphrase", "password_again", "a long new passphrase"));
        assertEquals(410, again.statusCode());
        assertTrue(again.asString().contains("id=\"link_gone\""));
        assertEquals(410, given().get("/account/password/reset").statusCode());
    }

    /**
     * The account page's form: the current password first; then every other session of the person
     * ends, not this one, and so do the tokens a script got with the old password (no application
     * holds them); an application the person gave access keeps it.
     */
    @Test
    void aPasswordChangedOnTheAccountPageEndsTheOtherSessions() {
        String script = (String) org.ziggurat.auth.OAuthTestSupport.aliceTokens(null, "user").get("access_token");
        String application = (String) org.ziggurat.auth.OAuthTestSupport.aliceTokens(
                org.ziggurat.auth.OAuthTestSupport.createApp(true, "user"), "user").get("access_token");
        // What the script's token made through the API form of the authorization endpoint is of its family.
        var formApp = org.ziggurat.auth.OAuthTestSupport.createApp(true, "user");
        var made = AuthorizeFlowTest.apiAuthorize(script, "response_type=code&client_id=" + formApp.clientId() + "&client_secret="
                + formApp.secret() + "&redirect_uri=" + AuthorizeFlowTest.enc(AuthorizeFlowTest.CALLBACK) + "&username=alice&scope=user");
        assertEquals(302, made.statusCode(), made.asString());
        String fromForm = org.ziggurat.auth.OAuthTestSupport.post("/oauth/token", formApp, "grant_type", "authorization_code",
                "code", AuthorizeFlowTest.query(made.getHeader("Location")).get("code"), "redirect_uri", AuthorizeFlowTest.CALLBACK)
                .statusCode(200).extract().path("access_token");
        Browser here = new Browser();
        signIn(here, url(OpenIdConnectTest.openIdApp(null), "scope", "openid"));
        Browser elsewhere = new Browser();
        signIn(elsewhere, url(OpenIdConnectTest.openIdApp(null), "scope", "openid"));
        Response page = here.get("/account/security");
        assertTrue(page.asString().contains("id=\"change_password\""), page.asString());
        Map<String, String> fields = AuthorizeFlowTest.hiddenFields(page.asString().substring(
                page.asString().indexOf("value=\"password_change\"") - 60));
        int before = DirectoryDouble.PASSWORD_CHANGES.get();
        // A sign-in elsewhere that stopped at the second factor's step (one who knew the old password).
        String pending = pendingSignIns.create(101, "alice").await().atMost(java.time.Duration.ofSeconds(10));

        fields.put("action", "password_change");
        fields.put("password", "not alice's password");
        fields.put("new_password", "a long new passphrase");
        fields.put("new_password_again", "a long new passphrase");
        assertEquals(401, here.post("/account/security", fields).statusCode(), "the current password first");
        fields.put("password", "alice password 1");
        fields.put("new_password_again", "something else entirely");
        assertEquals(422, here.post("/account/security", fields).statusCode());
        fields.put("new_password", "short");
        fields.put("new_password_again", "short");
        assertEquals(422, here.post("/account/security", fields).statusCode());
        assertEquals(before, DirectoryDouble.PASSWORD_CHANGES.get(), "nothing changed so far");
        assertTrue(elsewhere.get("/account/security").asString().contains("id=\"change_password\""), "signed in there too");

        fields.put("new_password", "a long new passphrase");
        fields.put("new_password_again", "a long new passphrase");
        Response changed = here.post("/account/security", fields);
        assertEquals(303, changed.statusCode(), changed.asString());
        assertEquals(before + 1, DirectoryDouble.PASSWORD_CHANGES.get());
        assertTrue(elsewhere.get("/account/security").asString().contains("id=\"sign_in\""), "the other session ended");
        assertTrue(here.get("/account/security").asString().contains("id=\"change_password\""), "this one goes on");
        assertNull(pendingSignIns.find(pending).await().atMost(java.time.Duration.ofSeconds(10)),
                "the pending sign-in ended too");
        org.ziggurat.auth.OAuthTestSupport.introspect(script).body("active", org.hamcrest.Matchers.equalTo(false));
        org.ziggurat.auth.OAuthTestSupport.introspect(fromForm).body("active", org.hamcrest.Matchers.equalTo(false));
        org.ziggurat.auth.OAuthTestSupport.introspect(application).body("active", org.hamcrest.Matchers.equalTo(true));
    }
}
