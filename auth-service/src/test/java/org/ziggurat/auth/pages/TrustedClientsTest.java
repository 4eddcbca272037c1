package org.ziggurat.auth.pages;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport.App;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.OAuthTestSupport.asPerson;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.Browser;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.CALLBACK;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.hiddenFields;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.query;
import static org.ziggurat.auth.pages.OpenIdConnectTest.authorize;
import static org.ziggurat.auth.pages.OpenIdConnectTest.url;

/**
 * Which clients are trusted with an answer the person did not see (prompt=none), how an operator
 * marks one verified, and how the pages mark every other one with who registered it; the
 * platform's own name is the operators' to give.
 */
@QuarkusTest
class TrustedClientsTest {

    static final long OPERATOR = 990;
    static final long BOB = 102;

    static App appOf(long owner, String username, String name) {
        return appOf(owner, username, name, "openid profile email user");
    }

    static App appOf(long owner, String username, String name, String scopes) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", name);
        body.put("redirect_uris", List.of(CALLBACK));
        body.put("scopes", scopes);
        var created = as(owner, username).contentType("application/json").body(body).post("/applications")
                .then().statusCode(201).body("verified", equalTo(false)).extract();
        return new App(((Number) created.path("id")).longValue(), created.path("client_id"), created.path("client_secret"));
    }

    static io.restassured.response.ValidatableResponse patch(long caller, String username, App app, String json) {
        return as(caller, username).contentType("application/json").body(json).patch("/applications/" + app.id()).then();
    }

    /**
     * The person with the admin scope; the operator with their own token (issued without a client),
     * as operators act (ApplicationsTest: an operator's token issued to an application is refused).
     */
    static io.restassured.specification.RequestSpecification as(long caller, String username) {
        return caller == OPERATOR ? given().header("X-Platform-Token",
                org.ziggurat.platform.testing.TestTokens.userWithClient(caller, username, null, "admin"))
                : asPerson(caller, username, "admin");
    }

    static void verify(App app) {
        patch(OPERATOR, "operator", app, "{\"verified\": true}").statusCode(200).body("verified", equalTo(true));
    }

    @Test
    void promptNoneRedirectsOnlyToVerifiedOrConsentedClients() {
        App app = appOf(BOB, "bob", "Bob's notebook");
        Browser browser = new Browser();

        // Anyone may register a client with any https redirect URI: without a session, its
        // prompt=none gets our page, which names where the answer would go; no redirect at all.
        Response noSession = browser.get(url(app, "scope", "openid", "prompt", "none", "state", "quiet"));
        noSession.then().statusCode(200).header("Location", nullValue())
                .body(containsString("<code id=\"destination_host\">https://app.example.org</code>"))
                .body(containsString("id=\"unverified\"")).body(containsString("registered by @bob"));
        String link = AuthorizeFlowTest.attribute(noSession.asString(), "continue_link", "href");
        Map<String, String> linked = query(link.replace("&amp;", "&"));
        assertEquals("login_required", linked.get("error"));
        assertEquals("quiet", linked.get("state"));
        assertTrue(link.startsWith(CALLBACK + "?"), link);

        // Signed in, never consented: the same page, with consent_required.
        authorize(browser, url(appOf(BOB, "bob", "Another tool"), "scope", "openid"));
        Response noConsent = browser.get(url(app, "scope", "openid", "prompt", "none"));
        noConsent.then().statusCode(200).header("Location", nullValue());
        assertEquals("consent_required", query(AuthorizeFlowTest.attribute(noConsent.asString(), "continue_link", "href")
                .replace("&amp;", "&")).get("error"));

        // Consented before (to less than asked now): the client is trusted with the answer.
        authorize(browser, url(app, "scope", "openid"));
        Response more = browser.get(url(app, "scope", "openid email", "prompt", "none"));
        assertEquals(303, more.statusCode(), more.asString());
        assertEquals("consent_required", query(more.getHeader("Location")).get("error"));
        Response silent = browser.get(url(app, "scope", "openid", "prompt", "none"));
        assertEquals(303, silent.statusCode(), silent.asString());
        assertNotNull(query(silent.getHeader("Location")).get("code"));

        // Verified by an operator: answered without a page, session or not.
        App verified = appOf(BOB, "bob", "Verified tool");
        verify(verified);
        Response answered = new Browser().get(url(verified, "scope", "openid", "prompt", "none", "state", "s"));
        assertEquals(303, answered.statusCode(), answered.asString());
        assertEquals("login_required", query(answered.getHeader("Location")).get("error"));
        Response consentRequired = browser.get(url(verified, "scope", "openid", "prompt", "none"));
        assertEquals(303, consentRequired.statusCode(), consentRequired.asString());
        assertEquals("consent_required", query(consentRequired.getHeader("Location")).get("error"));
    }

    /**
     * OpenID Connect Core §3.1.2.1: prompt=none shows nothing. An application an operator registered
     * (with their own token, or the deployment's initial access token for registration) hears the
     * answer as a verified one does; one a person registered gets our page, and so does the
     * operator's once its owner changes where it sends people.
     */
    @Test
    void anApplicationAnOperatorRegisteredHearsPromptNonesAnswerWithoutAPage() {
        App byOperator = appOf(OPERATOR, "operator", "Operator's tool");
        Response silent = new Browser().get(url(byOperator, "scope", "openid", "prompt", "none", "state", "q"));
        assertEquals(303, silent.statusCode(), silent.asString());
        assertEquals("login_required", query(silent.getHeader("Location")).get("error"));

        var registered = given().header("Authorization", "Bearer test-initial-access-token-0123456789abcdef")
                .contentType("application/json").body("{\"client_name\": \"Registered tool\", \"redirect_uris\": [\""
                        + CALLBACK + "\"], \"scope\": \"openid\"}")
                .post("/oauth/register").then().statusCode(201).extract();
        String clientId = registered.path("client_id");
        String registrationToken = registered.path("registration_access_token");
        String silentUrl = "/oauth/authorize?response_type=code&client_id=" + clientId + "&redirect_uri="
                + AuthorizeFlowTest.enc(CALLBACK) + "&scope=openid&prompt=none";
        Response registeredAnswer = new Browser().get(silentUrl);
        assertEquals(303, registeredAnswer.statusCode(), registeredAnswer.asString());
        assertEquals("login_required", query(registeredAnswer.getHeader("Location")).get("error"));

        // Its owner sends people elsewhere now (RFC 7592): the trust was the operator's, for what they registered.
        String elsewhere = "https://elsewhere.example.org/cb";
        given().header("Authorization", "Bearer " + registrationToken).contentType("application/json")
                .body("{\"client_id\": \"" + clientId + "\", \"client_name\": \"Registered tool\", \"redirect_uris\": [\""
                        + elsewhere + "\"], \"scope\": \"openid\"}")
                .put("/oauth/register/" + clientId).then().statusCode(200);
        Response afterChange = new Browser().get("/oauth/authorize?response_type=code&client_id=" + clientId
                + "&redirect_uri=" + AuthorizeFlowTest.enc(elsewhere) + "&scope=openid&prompt=none");
        afterChange.then().statusCode(200).header("Location", nullValue()).body(containsString("id=\"continue_link\""));

        // A person's registration with their own admin token: our page.
        String alices = org.ziggurat.auth.OAuthTestSupport.post("/oauth/token", null, "grant_type", "password", "username",
                "alice", "password", "alice password 1", "scope", "admin").statusCode(200).extract().path("access_token");
        String personsClient = given().header("Authorization", "Bearer " + alices).contentType("application/json")
                .body("{\"client_name\": \"Alice's tool\", \"redirect_uris\": [\"" + CALLBACK + "\"], \"scope\": \"openid\"}")
                .post("/oauth/register").then().statusCode(201).extract().path("client_id");
        new Browser().get(silentUrl.replace(clientId, personsClient)).then().statusCode(200).header("Location", nullValue());
    }

    /** The account scope (address, export, deletion): a third party cannot obtain it, even when it registered it. */
    @Test
    void onlyAVerifiedApplicationMayAskForTheAccountScope() {
        App app = appOf(BOB, "bob", "Account tool", "openid user account");
        // Shown on a page, as every error of an application that no operator verified (no redirect to it).
        Response refused = new Browser().get(url(app, "scope", "user account", "state", "s"));
        assertEquals(400, refused.statusCode(), refused.asString());
        assertTrue(refused.asString().contains("invalid_scope: Only an application the platform"), refused.asString());
        verify(app);
        Response asked = new Browser().get(url(app, "scope", "user account", "state", "s"));
        assertEquals(200, asked.statusCode(), "the sign-in page: " + asked.getHeader("Location"));
        assertTrue(asked.asString().contains("id=\"sign_in\""), asked.asString());

        // Verified, alice gives it the scope; then the mark goes: every token of it that carries the scope
        // is revoked with it (the refresh token too), and no refresh or exchange brings the scope back.
        Map<String, String> code = AuthorizeFlowTest.approve(new Browser(), app, "user account", "s-account", null);
        var tokens = org.ziggurat.auth.OAuthTestSupport.post("/oauth/token", app, "grant_type", "authorization_code", "code", code.get("code"),
                "redirect_uri", CALLBACK).statusCode(200).extract();
        String access = tokens.path("access_token");
        String refresh = tokens.path("refresh_token");
        org.ziggurat.auth.OAuthTestSupport.introspect(access).body("active", equalTo(true)).body("scope", containsString("account"));
        // A code approved while it was verified (a wider consent: openid too), redeemed after the mark went: none.
        Map<String, String> pending = AuthorizeFlowTest.approve(new Browser(), app, "openid user account", "s-account-2", null);
        patch(OPERATOR, "operator", app, "{\"verified\": false}").statusCode(200).body("verified", equalTo(false));
        // Revoked in the database by the mark's trigger; this replica's memory of live tokens forgets it when
        // PostgreSQL's notification of the change arrives (milliseconds), not before the PATCH answers.
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20)).until(() -> Boolean.FALSE.equals(
                org.ziggurat.auth.OAuthTestSupport.introspect(access).extract().path("active")));
        org.ziggurat.auth.OAuthTestSupport.post("/oauth/token", app, "grant_type", "authorization_code", "code",
                pending.get("code"), "redirect_uri", CALLBACK).statusCode(400).body("error", equalTo("invalid_scope"));
        org.ziggurat.auth.OAuthTestSupport.post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token", refresh).statusCode(400);
    }

    @Test
    void onlyOperatorsVerifyAndOwnersChangesTakeTheMarkAway() {
        App app = appOf(BOB, "bob", "Bob's lab tool");
        patch(BOB, "bob", app, "{\"verified\": true}").statusCode(403);
        patch(101, "alice", app, "{\"verified\": true}").statusCode(403);
        given().contentType("application/json").body("{\"verified\": true}").patch("/applications/" + app.id()).then()
                .statusCode(401);
        patch(OPERATOR, "operator", app, "{\"verified\": \"yes\"}").statusCode(422);
        patch(OPERATOR, "operator", app, "{\"verified\": true, \"name\": \"Renamed\"}").statusCode(422);
        as(OPERATOR, "operator").contentType("application/json").body("{\"verified\": true}")
                .patch("/applications/999999999").then().statusCode(404);
        verify(app);
        asPerson(BOB, "bob", "admin").get("/applications/" + app.id()).then().statusCode(200).body("verified", equalTo(true));

        // The owner's scopes are the owner's business; a new name or new addresses were not verified.
        patch(BOB, "bob", app, "{\"scopes\": \"openid user\"}").statusCode(200).body("verified", equalTo(true));
        patch(BOB, "bob", app, "{\"redirect_uris\": [\"https://elsewhere.example.org/cb\"]}").statusCode(200)
                .body("verified", equalTo(false));
        verify(app);
        patch(BOB, "bob", app, "{\"name\": \"Bob's other tool\"}").statusCode(200).body("verified", equalTo(false));
        verify(app);
        patch(BOB, "bob", app, "{\"post_logout_redirect_uris\": [\"https://elsewhere.example.org/out\"]}").statusCode(200)
                .body("verified", equalTo(false));
        // An operator may take the mark away too.
        verify(app);
        patch(OPERATOR, "operator", app, "{\"verified\": false}").statusCode(200).body("verified", equalTo(false));
    }

    @Test
    void thePagesMarkAnApplicationThatNoOperatorVerified() {
        App app = appOf(BOB, "bob", "Bob's notebook");
        Browser browser = new Browser();
        Response login = browser.get(url(app, "scope", "openid user"));
        login.then().statusCode(200).body(containsString("id=\"sign_in\"")).body(containsString("id=\"unverified\""))
                .body(containsString("Not verified by Ziggurat.")).body(containsString("registered by @bob"));
        Response consent = browser.get(AuthorizeFlowTest.relative(OpenIdConnectTest.signIn(browser,
                url(app, "scope", "openid user")).getHeader("Location")));
        consent.then().statusCode(200).body(containsString("id=\"approve\"")).body(containsString("registered by @bob"));

        verify(app);
        Browser other = new Browser();
        other.get(url(app, "scope", "openid user")).then().statusCode(200).body(containsString("id=\"sign_in\""))
                .body(not(containsString("id=\"unverified\"")));
        Response verifiedConsent = browser.get(url(app, "scope", "openid user"));
        verifiedConsent.then().statusCode(200).body(containsString("id=\"approve\""))
                .body(not(containsString("id=\"unverified\"")));
        Map<String, String> form = hiddenFields(verifiedConsent.asString());
        form.put("action", "approve");
        assertEquals(303, browser.post(form).statusCode());
    }

    @Test
    void thePlatformsNameIsTheOperatorsToGive() {
        for (String name : List.of("Ziggurat", "ziggurat", "Ziggurat CLI", "ZIG GURAT", "Zig-gurat",
                "\u0396iggurat", "Ziggur\u0430t", "\u2124iggurat", "Z1ggurat", "The official ziggurat app")) {
            Map<String, Object> body = new HashMap<>();
            body.put("name", name);
            body.put("redirect_uris", List.of(CALLBACK));
            asPerson(BOB, "bob", "admin").contentType("application/json").body(body).post("/applications").then()
                    .statusCode(422).body("errors.field", org.hamcrest.Matchers.hasItem("name"));
        }
        App app = appOf(BOB, "bob", "Zigzag notes");
        patch(BOB, "bob", app, "{\"name\": \"Ziggurat\"}").statusCode(422);
        // Registering itself (RFC 7591) does not make a client the platform either.
        given().header("Authorization", "Bearer test-initial-access-token-0123456789abcdef").contentType("application/json")
                .body("{\"client_name\": \"Ziggurat CLI\", \"redirect_uris\": [\"" + CALLBACK + "\"]}")
                .post("/oauth/register").then().statusCode(400).body("error", equalTo("invalid_client_metadata"));
        // The operators' own tools carry it.
        appOf(OPERATOR, "operator", "Ziggurat CLI");
    }
}
