package org.ziggurat.auth.pages;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.oauth2.sdk.token.BearerAccessToken;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.claims.AccessTokenHash;
import com.nimbusds.openid.connect.sdk.claims.IDTokenClaimsSet;
import com.nimbusds.openid.connect.sdk.validators.IDTokenValidator;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport.App;

import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.OAuthTestSupport.asPerson;
import static org.ziggurat.auth.OAuthTestSupport.introspect;
import static org.ziggurat.auth.OAuthTestSupport.post;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.Browser;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.CALLBACK;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.enc;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.hiddenFields;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.query;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.relative;

/**
 * OpenID Connect on the authorization and token endpoints, userinfo, discovery and logout, with a
 * relying party's own checks: Nimbus's IDTokenValidator verifies every ID token against the
 * published JWKS.
 */
@QuarkusTest
class OpenIdConnectTest {

    static final String ISSUER = "http://localhost:8080/api";
    static final String LOGGED_OUT = "https://app.example.org/logged-out";
    static final long ALICE = 101;

    static App openIdApp(String alg) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", "Notebook hub");
        body.put("redirect_uris", List.of(CALLBACK));
        body.put("scopes", "openid profile email user");
        body.put("post_logout_redirect_uris", List.of(LOGGED_OUT));
        body.put("password_grant", true);
        if (alg != null) {
            body.put("id_token_signed_response_alg", alg);
        }
        var created = asPerson(900, "owner", "admin").contentType("application/json").body(body).post("/applications")
                .then().statusCode(201).extract();
        return new App(((Number) created.path("id")).longValue(), created.path("client_id"), created.path("client_secret"));
    }

    static String url(App app, String... pairs) {
        StringBuilder url = new StringBuilder("/oauth/authorize?response_type=code&client_id=").append(app.clientId())
                .append("&redirect_uri=").append(enc(CALLBACK));
        for (int i = 0; i < pairs.length; i += 2) {
            url.append('&').append(pairs[i]).append('=').append(enc(pairs[i + 1]));
        }
        return url.toString();
    }

    /** Signs alice in on the login page of {@code url}; the answer to the sign-in form. */
    static Response signIn(Browser browser, String url) {
        Response page = browser.get(url);
        assertEquals(200, page.statusCode(), page.asString());
        assertTrue(page.asString().contains("id=\"sign_in\""), "the login page");
        Map<String, String> form = hiddenFields(page.asString());
        form.put("login", "alice");
        form.put("password", "alice password 1");
        Response signedIn = browser.post(form);
        assertEquals(303, signedIn.statusCode(), signedIn.asString());
        return signedIn;
    }

    /** Through login (if needed) and consent to the redirect: its parameters. */
    static Map<String, String> authorize(Browser browser, String url) {
        Response answer = browser.get(url);
        if (answer.asString().contains("id=\"sign_in\"")) {
            answer = browser.get(relative(signIn(browser, url).getHeader("Location")));
        }
        if (answer.statusCode() == 200 && answer.asString().contains("id=\"approve\"")) {
            Map<String, String> form = hiddenFields(answer.asString());
            form.put("action", "approve");
            answer = browser.post(form);
        }
        assertEquals(303, answer.statusCode(), answer.asString());
        assertTrue(answer.getHeader("Location").startsWith(CALLBACK + "?"), answer.getHeader("Location"));
        return query(answer.getHeader("Location"));
    }

    static Map<String, Object> exchange(App app, String code) {
        return post("/oauth/token", app, "grant_type", "authorization_code", "code", code, "redirect_uri", CALLBACK)
                .statusCode(200).extract().jsonPath().getMap("$");
    }

    static IDTokenValidator validator(App app, JWSAlgorithm alg) throws Exception {
        JWKSet keys = JWKSet.parse(given().get("/oauth/jwks").then().statusCode(200).extract().asString());
        return new IDTokenValidator(new Issuer(ISSUER), new ClientID(app.clientId()), alg, keys);
    }

    @Test
    void theCodeFlowIssuesAnIdTokenThatARelyingPartyValidates() throws Exception {
        App app = openIdApp(null);
        Browser browser = new Browser();
        Map<String, String> answer = authorize(browser, url(app, "scope", "openid profile", "state", "s-1", "nonce", "n-0001"));
        assertEquals(ISSUER, answer.get("iss"), "RFC 9207: the issuer in the authorization response");
        assertEquals("s-1", answer.get("state"));
        Map<String, Object> tokens = exchange(app, answer.get("code"));
        String idToken = (String) tokens.get("id_token");
        assertNotNull(idToken, "an ID token beside the access token: " + tokens);

        IDTokenClaimsSet claims = validator(app, JWSAlgorithm.RS256).validate(JWTParser.parse(idToken), new Nonce("n-0001"));
        assertEquals(Long.toString(ALICE), claims.getSubject().getValue(), "sub is the person's id, not the username");
        assertEquals(app.clientId(), claims.getStringClaim("azp"));
        assertEquals(AccessTokenHash.compute(new BearerAccessToken((String) tokens.get("access_token")), JWSAlgorithm.RS256, null),
                claims.getAccessTokenHash(), "at_hash binds the ID token to its access token");
        assertNotNull(claims.getAuthenticationTime(), "auth_time");
        long lifetime = claims.getExpirationTime().getTime() / 1000 - claims.getIssueTime().getTime() / 1000;
        assertEquals(7200, lifetime, "the ID token lives as long as the access token, no longer than its key is published");
        assertEquals(JOSEObjectType.JWT, SignedJWT.parse(idToken).getHeader().getType());

        // The relying party's own nonce check: another nonce is refused.
        assertThrows(com.nimbusds.jose.proc.BadJOSEException.class,
                () -> validator(app, JWSAlgorithm.RS256).validate(JWTParser.parse(idToken), new Nonce("n-other")));
    }

    @Test
    void anApplicationMayHaveItsIdTokensSignedWithEs256() throws Exception {
        App app = openIdApp("ES256");
        Map<String, String> answer = authorize(new Browser(), url(app, "scope", "openid", "nonce", "n-es-1"));
        String idToken = (String) exchange(app, answer.get("code")).get("id_token");
        assertEquals(JWSAlgorithm.ES256, SignedJWT.parse(idToken).getHeader().getAlgorithm());
        validator(app, JWSAlgorithm.ES256).validate(JWTParser.parse(idToken), new Nonce("n-es-1"));
        // A relying party that expects RS256 takes no ES256 token (no algorithm confusion).
        assertThrows(com.nimbusds.jose.proc.BadJOSEException.class,
                () -> validator(app, JWSAlgorithm.RS256).validate(JWTParser.parse(idToken), new Nonce("n-es-1")));
    }

    @Test
    void withoutOpenidThereIsNoIdToken() {
        App app = openIdApp(null);
        Map<String, String> answer = authorize(new Browser(), url(app, "scope", "user"));
        assertFalse(exchange(app, answer.get("code")).containsKey("id_token"));
    }

    @Test
    void aNonceIsGoodForOneCode() {
        App app = openIdApp(null);
        Browser browser = new Browser();
        String url = url(app, "scope", "openid", "nonce", "n-replayed");
        authorize(browser, url);
        // The same request again (a replay of its URL): consent is remembered, but the nonce is spent.
        browser.get(url).then().statusCode(400).body(containsString("used already"));
        // A fresh nonce goes through.
        assertNotNull(authorize(browser, url(app, "scope", "openid", "nonce", "n-fresh")).get("code"));
        // Another application may use the same value: nonces are the client's own.
        App other = openIdApp(null);
        assertNotNull(authorize(browser, url(other, "scope", "openid", "nonce", "n-replayed")).get("code"));
    }

    @Test
    void aRefreshIssuesANewIdTokenForTheSameSignIn() throws Exception {
        App app = openIdApp(null);
        Map<String, String> answer = authorize(new Browser(), url(app, "scope", "openid user", "nonce", "n-refresh"));
        Map<String, Object> first = exchange(app, answer.get("code"));
        IDTokenClaimsSet before = validator(app, JWSAlgorithm.RS256).validate(JWTParser.parse((String) first.get("id_token")),
                new Nonce("n-refresh"));
        Map<String, Object> refreshed = post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token",
                (String) first.get("refresh_token")).statusCode(200).extract().jsonPath().getMap("$");
        JWT second = JWTParser.parse((String) refreshed.get("id_token"));
        // Core 12.2: no nonce on a refresh; the same subject, audience and auth_time.
        IDTokenClaimsSet after = validator(app, JWSAlgorithm.RS256).validate(second, null);
        assertNull(after.getNonce());
        assertEquals(before.getSubject(), after.getSubject());
        assertEquals(before.getAuthenticationTime(), after.getAuthenticationTime());
        assertEquals(AccessTokenHash.compute(new BearerAccessToken((String) refreshed.get("access_token")), JWSAlgorithm.RS256,
                null), after.getAccessTokenHash());
        // Narrowed to scopes without openid: no ID token.
        Map<String, Object> narrowed = post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token",
                (String) refreshed.get("refresh_token"), "scope", "user").statusCode(200).extract().jsonPath().getMap("$");
        assertFalse(narrowed.containsKey("id_token"));
    }

    @Test
    void thePasswordGrantIssuesIdTokensToClientsOnly() throws Exception {
        App app = openIdApp(null);
        Map<String, Object> tokens = post("/oauth/token", app, "grant_type", "password", "username", "alice", "password",
                "alice password 1", "scope", "openid").statusCode(200).extract().jsonPath().getMap("$");
        IDTokenClaimsSet claims = validator(app, JWSAlgorithm.RS256).validate(JWTParser.parse((String) tokens.get("id_token")), null);
        assertEquals(Long.toString(ALICE), claims.getSubject().getValue());
        post("/oauth/token", null, "grant_type", "password", "username", "alice", "password", "alice password 1", "scope",
                "openid").statusCode(400).body("error", equalTo("invalid_scope"));
        post("/oauth/token", app, "grant_type", "client_credentials", "scope", "openid").statusCode(400)
                .body("error", equalTo("invalid_scope"));
    }

    @Test
    void userinfoAnswersClaimsByScope() {
        App app = openIdApp(null);
        String onlyOpenid = passwordToken(app, "openid");
        String everything = passwordToken(app, "openid profile email");
        assertEquals(Map.of("sub", "101"), given().auth().oauth2(onlyOpenid).get("/oauth/userinfo").then().statusCode(200)
                .header("Cache-Control", "no-store").extract().jsonPath().getMap("$"));
        given().auth().oauth2(everything).get("/oauth/userinfo").then().statusCode(200)
                .body("sub", equalTo("101")).body("preferred_username", equalTo("alice")).body("name", equalTo("ALICE"))
                .body("email", equalTo("alice@example.org")).body("email_verified", equalTo(false))
                .body("updated_at", org.hamcrest.Matchers.notNullValue());
        // POST, with the token in the header or in the form (RFC 6750 2.2), never both.
        given().auth().oauth2(everything).post("/oauth/userinfo").then().statusCode(200).body("sub", equalTo("101"));
        given().contentType("application/x-www-form-urlencoded").formParam("access_token", onlyOpenid).post("/oauth/userinfo")
                .then().statusCode(200).body("sub", equalTo("101"));
        given().auth().oauth2(onlyOpenid).contentType("application/x-www-form-urlencoded").formParam("access_token", onlyOpenid)
                .post("/oauth/userinfo").then().statusCode(400);
        // Without openid: insufficient_scope.
        given().auth().oauth2(passwordToken(app, "user")).get("/oauth/userinfo").then().statusCode(403)
                .header("WWW-Authenticate", containsString("insufficient_scope"));
        given().get("/oauth/userinfo").then().statusCode(401).header("WWW-Authenticate", startsWith("Bearer"));
    }

    @Test
    void anIdTokenOrARefreshTokenIsNeverAnAccessToken() {
        App app = openIdApp(null);
        Map<String, Object> tokens = post("/oauth/token", app, "grant_type", "password", "username", "alice", "password",
                "alice password 1", "scope", "openid").statusCode(200).extract().jsonPath().getMap("$");
        for (String key : new String[] {"id_token", "refresh_token"}) {
            String value = (String) tokens.get(key);
            given().auth().oauth2(value).get("/oauth/userinfo").then().statusCode(401)
                    .header("WWW-Authenticate", containsString("invalid_token"));
            given().auth().oauth2(value).get("/oauth/token/info").then().statusCode(401);
        }
        introspect((String) tokens.get("id_token")).statusCode(200).body("active", equalTo(false));
    }

    @Test
    void promptNoneAnswersWithoutAPage() {
        // Verified by an operator: trusted with an answer the person does not see (TrustedClientsTest).
        App app = openIdApp(null);
        TrustedClientsTest.verify(app);
        Browser browser = new Browser();
        Response noSession = browser.get(url(app, "scope", "openid", "prompt", "none", "state", "quiet"));
        assertEquals(303, noSession.statusCode(), noSession.asString());
        Map<String, String> error = query(noSession.getHeader("Location"));
        assertEquals("login_required", error.get("error"));
        assertEquals("quiet", error.get("state"));
        assertEquals(ISSUER, error.get("iss"));

        // Signed in, but this application never had consent: consent_required.
        App other = openIdApp(null);
        authorize(browser, url(other, "scope", "openid"));
        Response noConsent = browser.get(url(app, "scope", "openid", "prompt", "none"));
        assertEquals("consent_required", query(noConsent.getHeader("Location")).get("error"));

        // Signed in and consented: a code at once.
        authorize(browser, url(app, "scope", "openid"));
        Response silent = browser.get(url(app, "scope", "openid", "prompt", "none"));
        assertEquals(303, silent.statusCode());
        assertNotNull(query(silent.getHeader("Location")).get("code"));
    }

    @Test
    void promptLoginAndMaxAgeAskForAFreshSignInOnce() throws Exception {
        App app = openIdApp(null);
        Browser browser = new Browser();
        authorize(browser, url(app, "scope", "openid"));
        for (String[] asking : new String[][] {{"prompt", "login"}, {"max_age", "0"}, {"prompt", "select_account"}}) {
            String url = url(app, "scope", "openid", asking[0], asking[1]);
            Response page = browser.get(url);
            assertTrue(page.asString().contains("id=\"sign_in\""), asking[0] + "=" + asking[1] + " shows the login page");
            // After signing in, the request goes on to the code: it does not ask again.
            Response next = browser.get(relative(signIn(browser, url).getHeader("Location")));
            assertEquals(303, next.statusCode(), next.asString());
            Map<String, String> answer = query(next.getHeader("Location"));
            IDTokenClaimsSet claims = validator(app, JWSAlgorithm.RS256).validate(
                    JWTParser.parse((String) exchange(app, answer.get("code")).get("id_token")), null);
            assertTrue(claims.getAuthenticationTime().getTime() > System.currentTimeMillis() - 60_000,
                    "auth_time is the fresh sign-in");
        }
        // A generous max_age takes the session as it is.
        Response recent = browser.get(url(app, "scope", "openid", "max_age", "3600"));
        assertEquals(303, recent.statusCode());
    }

    @Test
    void promptConsentShowsTheConsentPageAgain() {
        App app = openIdApp(null);
        Browser browser = new Browser();
        authorize(browser, url(app, "scope", "openid"));
        Response page = browser.get(url(app, "scope", "openid", "prompt", "consent"));
        assertEquals(200, page.statusCode());
        assertTrue(page.asString().contains("id=\"approve\""));
    }

    @Test
    void badOpenIdParametersAreErrorPages() {
        App app = openIdApp(null);
        for (String[] bad : new String[][] {{"prompt", "none login"}, {"prompt", "sometimes"}, {"max_age", "-1"},
                {"max_age", "soon"}, {"nonce", "x".repeat(256)}}) {
            new Browser().get(url(app, "scope", "openid", bad[0], bad[1])).then().statusCode(400)
                    .header("Location", org.hamcrest.Matchers.nullValue()).body(containsString(bad[0]));
        }
    }

    @Test
    void discoveryIsOneDocumentAtBothAddresses() {
        Map<String, Object> oidc = given().get("/.well-known/openid-configuration").then().statusCode(200)
                .body("issuer", equalTo(ISSUER))
                .body("userinfo_endpoint", equalTo(ISSUER + "/oauth/userinfo"))
                .body("end_session_endpoint", equalTo(ISSUER + "/oauth/logout"))
                .body("jwks_uri", equalTo(ISSUER + "/oauth/jwks"))
                .body("id_token_signing_alg_values_supported", hasItems("RS256", "ES256"))
                .body("scopes_supported", hasItems("openid", "profile", "email"))
                .body("subject_types_supported", hasItems("public"))
                .body("authorization_response_iss_parameter_supported", equalTo(true))
                .extract().jsonPath().getMap("$");
        assertEquals(oidc, given().get("/.well-known/oauth-authorization-server").then().statusCode(200)
                .extract().jsonPath().getMap("$"));
    }

    @Test
    void logoutWithTheSignedInPersonsIdTokenEndsTheSessionAndReturns() {
        App app = openIdApp(null);
        Browser browser = new Browser();
        Map<String, String> answer = authorize(browser, url(app, "scope", "openid"));
        String idToken = (String) exchange(app, answer.get("code")).get("id_token");
        Response out = browser.get("/oauth/logout?id_token_hint=" + idToken + "&post_logout_redirect_uri=" + enc(LOGGED_OUT)
                + "&state=bye");
        assertEquals(303, out.statusCode(), out.asString());
        assertEquals(LOGGED_OUT + "?state=bye", out.getHeader("Location"));
        assertFalse(browser.cookies.containsKey(org.ziggurat.auth.authorization.LoginSessions.COOKIE), "the cookie goes");
        assertTrue(browser.get(url(app, "scope", "openid")).asString().contains("id=\"sign_in\""), "signed out");
    }

    @Test
    void anEndedSessionSignsNoOneIn() {
        App app = openIdApp(null);
        Browser browser = new Browser();
        Map<String, String> answer = authorize(browser, url(app, "scope", "openid"));
        String idToken = (String) exchange(app, answer.get("code")).get("id_token");
        String cookie = browser.cookies.get(org.ziggurat.auth.authorization.LoginSessions.COOKIE);
        browser.get("/oauth/logout?id_token_hint=" + idToken).then().statusCode(200).body(containsString("id=\"signed_out\""));
        Browser replay = new Browser();
        replay.cookies.put(org.ziggurat.auth.authorization.LoginSessions.COOKIE, cookie);
        assertTrue(replay.get(url(app, "scope", "openid")).asString().contains("id=\"sign_in\""),
                "the ended session's cookie is not a session any more");
    }

    @Test
    void logoutWithoutAHintAsksThePerson() {
        App app = openIdApp(null);
        Browser browser = new Browser();
        authorize(browser, url(app, "scope", "openid"));
        Response question = browser.get("/oauth/logout?client_id=" + app.clientId() + "&post_logout_redirect_uri="
                + enc(LOGGED_OUT));
        question.then().statusCode(200).body(containsString("id=\"sign_out\""))
                .body(containsString("<code id=\"return_host\">https://app.example.org</code>"))
                .header("Content-Security-Policy", containsString("form-action 'self' https://app.example.org"));
        Map<String, String> form = hiddenFields(question.asString());
        form.put("action", "logout");
        Map<String, String> forged = new HashMap<>(form);
        forged.put("csrf", "not-the-token");
        given().redirects().follow(false).cookies(browser.cookies).contentType("application/x-www-form-urlencoded")
                .formParams(forged).post("/oauth/logout").then().statusCode(403);
        Response out = given().redirects().follow(false).cookies(browser.cookies).contentType("application/x-www-form-urlencoded")
                .formParams(form).post("/oauth/logout");
        assertEquals(303, out.statusCode(), out.asString());
        assertEquals(LOGGED_OUT, out.getHeader("Location"));
    }

    @Test
    void logoutWithoutASessionOrAHintRedirectsNowhereByItself() {
        // A client_id is public: with it alone, a link to our sign-out would send anyone to any
        // address the client registered (an open redirect on the platform's host).
        App app = openIdApp(null);
        Response out = new Browser().get("/oauth/logout?client_id=" + app.clientId() + "&post_logout_redirect_uri="
                + enc(LOGGED_OUT) + "&state=phish");
        out.then().statusCode(200).header("Location", org.hamcrest.Matchers.nullValue())
                .body(containsString("id=\"signed_out\""))
                .body(containsString("<code id=\"return_host\">https://app.example.org</code>"))
                .body(containsString("id=\"return_link\" href=\"" + LOGGED_OUT + "?state=phish\""));
        // With the client's own ID token of the person as hint, the browser goes straight back.
        Browser browser = new Browser();
        String idToken = (String) exchange(app, authorize(browser, url(app, "scope", "openid")).get("code")).get("id_token");
        browser.get("/oauth/logout?id_token_hint=" + idToken).then().statusCode(200);
        Response back = new Browser().get("/oauth/logout?id_token_hint=" + idToken + "&post_logout_redirect_uri="
                + enc(LOGGED_OUT));
        assertEquals(303, back.statusCode(), back.asString());
        assertEquals(LOGGED_OUT, back.getHeader("Location"));
    }

    @Test
    void logoutRefusesHintsAndAddressesThatAreNotGood() throws Exception {
        App app = openIdApp(null);
        App other = openIdApp(null);
        Browser browser = new Browser();
        String idToken = (String) exchange(app, authorize(browser, url(app, "scope", "openid")).get("code")).get("id_token");
        // Not registered for post-logout, or registered by another application than the hint's.
        browser.get("/oauth/logout?id_token_hint=" + idToken + "&post_logout_redirect_uri=" + enc("https://evil.example.org/"))
                .then().statusCode(400).header("Location", org.hamcrest.Matchers.nullValue());
        browser.get("/oauth/logout?id_token_hint=" + idToken + "&client_id=" + other.clientId()).then().statusCode(400);
        // A post-logout URI needs its client named.
        browser.get("/oauth/logout?post_logout_redirect_uri=" + enc(LOGGED_OUT)).then().statusCode(400);
        // An ID token signed by someone else, even with our key id, is no hint.
        String kid = SignedJWT.parse(idToken).getHeader().getKeyID();
        RSAKey forger = new RSAKeyGenerator(2048).keyID(kid).generate();
        SignedJWT forged = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(kid).build(),
                new JWTClaimsSet.Builder().issuer(ISSUER).subject("101").audience(app.clientId())
                        .expirationTime(new Date(System.currentTimeMillis() + 60_000)).build());
        forged.sign(new RSASSASigner(forger));
        browser.get("/oauth/logout?id_token_hint=" + forged.serialize() + "&post_logout_redirect_uri=" + enc(LOGGED_OUT))
                .then().statusCode(400);
        browser.get("/oauth/logout?id_token_hint=garbage").then().statusCode(400);
        // A form that is no form: the error page too, not an OAuth client's JSON.
        given().contentType("text/plain").body("id_token_hint=x").post("/oauth/logout").then().statusCode(400)
                .contentType(startsWith("text/html"));
        given().contentType("application/x-www-form-urlencoded").body("state=a&state=b").post("/oauth/logout").then()
                .statusCode(400).contentType(startsWith("text/html"));
        // The person is still signed in after all of these.
        assertNotEquals(null, browser.cookies.get(org.ziggurat.auth.authorization.LoginSessions.COOKIE));
        Response silent = browser.get(url(app, "scope", "openid", "prompt", "none"));
        assertNotNull(query(silent.getHeader("Location")).get("code"));
    }

    @Test
    void applicationsValidateTheirOpenIdSettings() {
        Map<String, Object> body = new HashMap<>();
        body.put("name", "Bad");
        body.put("redirect_uris", List.of(CALLBACK));
        body.put("post_logout_redirect_uris", List.of("not a uri"));
        body.put("id_token_signed_response_alg", "none");
        asPerson(900, "owner", "admin").contentType("application/json").body(body).post("/applications").then()
                .statusCode(422).body(containsString("post_logout_redirect_uris[0]"))
                .body(containsString("id_token_signed_response_alg"));
        App app = openIdApp("ES256");
        asPerson(900, "owner", "admin").get("/applications/" + app.id()).then().statusCode(200)
                .body("id_token_signed_response_alg", equalTo("ES256"))
                .body("post_logout_redirect_uris", equalTo(List.of(LOGGED_OUT)))
                .body("require_pushed_authorization_requests", equalTo(false));
        // PATCH leaves out what it does not name.
        asPerson(900, "owner", "admin").contentType("application/json").body(Map.of("name", "Renamed"))
                .patch("/applications/" + app.id()).then().statusCode(200).body("id_token_signed_response_alg", equalTo("ES256"));
    }

    static String passwordToken(App app, String scope) {
        return post("/oauth/token", app, "grant_type", "password", "username", "alice", "password", "alice password 1",
                "scope", scope).statusCode(200).extract().path("access_token");
    }
}
