package org.ziggurat.auth.pages;

import com.nimbusds.jwt.JWTParser;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.DirectoryDouble;
import org.ziggurat.auth.OAuthTestSupport;
import org.ziggurat.auth.OAuthTestSupport.App;

import java.util.List;
import java.util.Map;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.OAuthTestSupport.post;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.Browser;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.CALLBACK;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.hiddenFields;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.query;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.relative;
import static org.ziggurat.auth.pages.OpenIdConnectTest.exchange;
import static org.ziggurat.auth.pages.OpenIdConnectTest.openIdApp;
import static org.ziggurat.auth.pages.OpenIdConnectTest.url;

/**
 * Signing in with a second factor on the authorization pages: after the password the code's form,
 * no session before the code, a code good once, a recovery code with how many are left, the ID
 * token's amr and acr, acr_values, and the password grant refused for such a person (the directory
 * is its double, which checks codes as the real one does).
 */
@QuarkusTest
class SecondFactorSignInTest {

    @jakarta.inject.Inject
    io.vertx.mutiny.sqlclient.Pool pool;

    @jakarta.inject.Inject
    org.ziggurat.auth.passkeys.PasskeyChallenges challenges;

    /** A passkey's answer names its challenge: the database takes its first use only, whichever replica asks. */
    @Test
    void aBrowsersAnswerThatIsNoPasskeyAssertionIsRefusedNotAnError() {
        Browser browser = new Browser();
        String page = browser.get("/account").asString();
        for (String credential : List.of("not json", "{}", "{\"id\":\"bm9uZQ\",\"type\":\"public-key\"}")) {
            // Each answer is the sign-in form again, with a CSRF token of its own.
            Map<String, String> form = FederationFlowTest.formWith(page, "sign_in");
            form.remove("_action");
            form.put("action", "passkey");
            form.put("credential", credential);
            Response refused = browser.post("/account", form);
            assertEquals(401, refused.statusCode(), credential + ": " + refused.asString());
            assertTrue(refused.asString().contains("That passkey could not sign you in"));
            page = refused.asString();
        }
    }

    @Test
    void aPasskeyChallengeIsAnsweredOnce() {
        byte[] challenge = challenges.issue(org.ziggurat.auth.passkeys.PasskeyChallenges.Ceremony.SIGN_IN, 0);
        assertTrue(challenges.use(challenge).await().atMost(java.time.Duration.ofSeconds(5)));
        assertFalse(challenges.use(challenge).await().atMost(java.time.Duration.ofSeconds(5)));
        assertTrue(challenges.use(challenges.issue(org.ziggurat.auth.passkeys.PasskeyChallenges.Ceremony.SIGN_IN, 0))
                .await().atMost(java.time.Duration.ofSeconds(5)));
    }

    /** The answer to the password form of {@code person} on the login page of {@code url}. */
    static Response password(Browser browser, String url, String person) {
        Response page = browser.get(url);
        assertTrue(page.asString().contains("id=\"sign_in\""), page.asString());
        Map<String, String> form = hiddenFields(page.asString());
        form.put("login", person);
        form.put("password", DirectoryDouble.PEOPLE.get(person).password());
        return browser.post(form);
    }

    static Response code(Browser browser, Response secondFactorPage, String code) {
        Map<String, String> form = hiddenFields(secondFactorPage.asString());
        form.put("code", code);
        return browser.post(form);
    }

    /** From the 303 after signing in, through consent, to the client: the redirect's parameters. */
    static Map<String, String> consentAndBack(Browser browser, String location) {
        Response consent = browser.get(relative(location));
        Map<String, String> form = hiddenFields(consent.asString());
        form.put("action", "approve");
        Response back = browser.post(form);
        assertEquals(303, back.statusCode(), back.asString());
        assertTrue(back.getHeader("Location").startsWith(CALLBACK + "?"), back.getHeader("Location"));
        return query(back.getHeader("Location"));
    }

    /**
     * The review's finding: thirty wrong codes sent at once after one password were all checked.
     * Each code is counted for its pending sign-in before the directory checks it (one conditional
     * UPDATE): no more than {@link org.ziggurat.auth.authorization.PendingSignIns#CODES} reach the
     * directory, and then the pending sign-in is over: the right code starts no session.
     */
    @Test
    void codesSentAtOnceForOnePendingSignInAreCheckedNoMoreThanItsLimit() throws Exception {
        Browser browser = new Browser();
        Response second = password(browser, url(openIdApp(null), "scope", "openid", "nonce", "n-burst"), "mia");
        assertEquals(200, second.statusCode(), second.asString());
        Map<String, String> form = hiddenFields(second.asString());
        form.put("code", "zzzzz-zzzzz");
        Map<String, String> cookies = Map.copyOf(browser.cookies);
        java.util.concurrent.ExecutorService senders = java.util.concurrent.Executors.newFixedThreadPool(30);
        java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(30);
        try {
            List<java.util.concurrent.Future<Integer>> answers = new java.util.ArrayList<>();
            for (int i = 0; i < 30; i++) {
                answers.add(senders.submit(() -> {
                    together.await();
                    return io.restassured.RestAssured.given().redirects().follow(false).cookies(cookies)
                            .contentType("application/x-www-form-urlencoded").formParams(form).post("/oauth/authorize")
                            .statusCode();
                }));
            }
            for (var answer : answers) {
                int status = answer.get();
                assertTrue(status == 401 || status == 429, "status " + status);
            }
        } finally {
            senders.shutdownNow();
        }
        assertEquals(org.ziggurat.auth.authorization.PendingSignIns.CODES, DirectoryDouble.SECOND_FACTOR_CHECKS.get(113L).get());
        Response right = code(browser, second, DirectoryDouble.totp(DirectoryDouble.currentStep()));
        assertEquals(401, right.statusCode());
        assertTrue(right.asString().contains("Sign in again"), right.asString());
        assertFalse(browser.cookies.containsKey("ziggurat_session"));
        assertEquals(org.ziggurat.auth.authorization.PendingSignIns.CODES, DirectoryDouble.SECOND_FACTOR_CHECKS.get(113L).get());
    }

    @Test
    void thePasswordThenTheCodeThenTheIdTokenSaysSo() throws Exception {
        App app = openIdApp(null);
        Browser browser = new Browser();
        Response second = password(browser, url(app, "scope", "openid", "nonce", "n-mfa-1"), "dora");
        assertEquals(200, second.statusCode());
        assertTrue(second.asString().contains("value=\"second_factor\""), "the second factor's form");
        // Its form's way on ends at the application: the CSP lets it lead there.
        assertTrue(second.getHeader("Content-Security-Policy").contains("form-action 'self' https://app.example.org;"),
                second.getHeader("Content-Security-Policy"));
        assertFalse(browser.cookies.containsKey("ziggurat_session"), "no session before the second factor");
        assertTrue(browser.cookies.containsKey("ziggurat_pending_sign_in"));

        Response wrong = code(browser, second, "000000".equals(DirectoryDouble.totp(DirectoryDouble.currentStep()))
                ? "111111" : "000000");
        assertEquals(401, wrong.statusCode());
        assertTrue(wrong.asString().contains("id=\"second_factor_error\""));
        assertFalse(browser.cookies.containsKey("ziggurat_session"));

        String good = DirectoryDouble.totp(DirectoryDouble.currentStep());
        Response signedIn = code(browser, wrong, good);
        assertEquals(303, signedIn.statusCode(), signedIn.asString());
        assertTrue(browser.cookies.containsKey("ziggurat_session"));
        assertFalse(browser.cookies.containsKey("ziggurat_pending_sign_in"), "the pending sign-in's cookie is cleared");

        Map<String, String> answer = consentAndBack(browser, signedIn.getHeader("Location"));
        Map<String, Object> tokens = exchange(app, answer.get("code"));
        var claims = JWTParser.parse((String) tokens.get("id_token")).getJWTClaimsSet();
        assertEquals(List.of("pwd", "otp", "mfa"), claims.getStringListClaim("amr"));
        assertEquals("https://refeds.org/profile/mfa", claims.getStringClaim("acr"));
        // Resource servers learn it by introspection (RFC 9470 §6.2), for every token of the sign-in.
        assertSignedInAs("https://refeds.org/profile/mfa", List.of("pwd", "otp", "mfa"), app, (String) tokens.get("access_token"),
                claims.getDateClaim("auth_time").toInstant().getEpochSecond());
        Map<String, Object> refreshed = post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token",
                (String) tokens.get("refresh_token")).statusCode(200).extract().jsonPath().getMap("$");
        var afterRefresh = JWTParser.parse((String) refreshed.get("id_token")).getJWTClaimsSet();
        assertEquals(List.of("pwd", "otp", "mfa"), afterRefresh.getStringListClaim("amr"), "a refresh keeps the first sign-in's amr");
        assertEquals("https://refeds.org/profile/mfa", afterRefresh.getStringClaim("acr"));
        assertSignedInAs("https://refeds.org/profile/mfa", List.of("pwd", "otp", "mfa"), app,
                (String) refreshed.get("access_token"), claims.getDateClaim("auth_time").toInstant().getEpochSecond());

        // The same code in another sign-in: used already.
        Browser other = new Browser();
        Response again = password(other, url(app, "scope", "openid", "nonce", "n-mfa-2"), "dora");
        Response replayed = code(other, again, good);
        assertEquals(401, replayed.statusCode());
        assertFalse(other.cookies.containsKey("ziggurat_session"));
    }

    @Test
    void aRecoveryCodeSignsInOnceAndSaysHowManyAreLeft() {
        App app = openIdApp(null);
        Browser browser = new Browser();
        Response second = password(browser, url(app, "scope", "openid", "nonce", "n-rec-1"), "erin");
        Response used = code(browser, second, DirectoryDouble.RECOVERY_CODES.get(0).toUpperCase());
        assertEquals(200, used.statusCode(), used.asString());
        assertTrue(used.asString().contains("You have 2 recovery codes left."), used.asString());
        assertTrue(browser.cookies.containsKey("ziggurat_session"), "signed in");
        String next = hrefOf(used.asString(), "continue");
        assertTrue(next.contains("/oauth/authorize?"), next);
        consentAndBack(browser, next);

        Browser other = new Browser();
        Response again = password(other, url(app, "scope", "openid", "nonce", "n-rec-2"), "erin");
        assertEquals(401, code(other, again, DirectoryDouble.RECOVERY_CODES.get(0)).statusCode(), "good once");
    }

    @Test
    void aPendingSignInIsNoSessionAndNeedsItsCookie() {
        App app = openIdApp(null);
        Browser browser = new Browser();
        Response second = password(browser, url(app, "scope", "openid"), "dora");
        browser.cookies.remove("ziggurat_pending_sign_in");
        Response lost = code(browser, second, DirectoryDouble.totp(DirectoryDouble.currentStep() + 1));
        assertEquals(401, lost.statusCode());
        assertTrue(lost.asString().contains("id=\"sign_in\""), "the password form again");
        // Its form's CSRF cookie is needed too.
        Browser forged = new Browser();
        Response page = password(forged, url(app, "scope", "openid"), "dora");
        forged.cookies.remove("ziggurat_login_csrf");
        assertEquals(403, code(forged, page, "123456").statusCode());
    }

    @Test
    void thePasswordGrantIsRefusedForAPersonWithASecondFactor() {
        App app = openIdApp(null);
        post("/oauth/token", app, "grant_type", "password", "username", "dora", "password", "dora password 4",
                "scope", "user").statusCode(400).body("error", equalTo("invalid_grant"))
                .body("error_description", containsString("authorization code flow"));
        post("/oauth/token", app, "grant_type", "password", "username", "dora", "password", "wrong",
                "scope", "user").statusCode(400).body("error_description", containsString("not valid"));
    }

    /**
     * The platform's own tools (the client-less form, how operators act) take the second factor's
     * code with the password, so that an operator may have one; an application's password grant never
     * carries it, even with the code.
     */
    @Test
    void theClientlessPasswordGrantTakesTheSecondFactorsCode() {
        App app = openIdApp(null);
        post("/oauth/token", app, "grant_type", "password", "username", "opal", "password", "opal password 0", "otp",
                DirectoryDouble.RECOVERY_CODES.get(2), "scope", "user").statusCode(400).body("error", equalTo("invalid_grant"))
                .body("error_description", containsString("authorization code flow"));
        post("/oauth/token", null, "grant_type", "password", "username", "opal", "password", "opal password 0",
                "scope", "admin").statusCode(400).body("error", equalTo("invalid_grant"))
                .body("error_description", containsString("otp"));
        post("/oauth/token", null, "grant_type", "password", "username", "opal", "password", "opal password 0", "otp",
                "000000", "scope", "admin").statusCode(400).body("error_description", containsString("code is not valid"));
        post("/oauth/token", null, "grant_type", "password", "username", "opal", "password", "opal password 0", "otp",
                "9".repeat(200), "scope", "admin").statusCode(400).body("error", equalTo("invalid_grant"));
        post("/oauth/token", null, "grant_type", "password", "username", "opal", "password", "wrong", "otp",
                DirectoryDouble.RECOVERY_CODES.get(2), "scope", "admin").statusCode(400)
                .body("error_description", containsString("username or password"));
        String token = post("/oauth/token", null, "grant_type", "password", "username", "opal", "password", "opal password 0",
                "otp", DirectoryDouble.totp(DirectoryDouble.currentStep() + 1), "scope", "admin").statusCode(200)
                .extract().path("access_token");
        OAuthTestSupport.introspect(token).statusCode(200).body("active", equalTo(true)).body("client_id", nullValue())
                .body("amr", hasItem("otp")).body("acr", equalTo("https://refeds.org/profile/mfa"));
    }

    @Test
    void anApplicationThatAsksForASecondFactorGetsOneOrAPageSaysWhy() throws Exception {
        App app = openIdApp(null);
        String mfa = "https://refeds.org/profile/mfa";
        // alice has none: after her password, a page that says where to set one up.
        Browser alice = new Browser();
        Response signedIn = password(alice, url(app, "scope", "openid", "acr_values", mfa), "alice");
        assertEquals(303, signedIn.statusCode());
        Response required = alice.get(relative(signedIn.getHeader("Location")));
        assertEquals(403, required.statusCode());
        assertTrue(required.asString().contains("id=\"second_factor_required\""));
        assertTrue(required.asString().contains("/account/security"));
        // Without a page (prompt=none), to an application no operator verified and she never consented to: its
        // answer would tell it who visits, so our page names where it would go (RFC 9700 §4.11.2), no redirect.
        Response silent = alice.get(url(app, "scope", "openid", "acr_values", mfa, "prompt", "none"));
        assertEquals(200, silent.statusCode(), silent.asString());
        assertTrue(silent.asString().contains("id=\"continue_link\""), silent.asString());
        assertTrue(silent.asString().contains("unmet_authentication_requirements"), "the link carries the answer");
        // Settling for either: her password is enough; she consents.
        Response either = alice.get(url(app, "scope", "openid", "acr_values", mfa + " https://refeds.org/profile/sfa"));
        assertTrue(either.asString().contains("id=\"approve\""), "the consent page");
        Map<String, String> consent = hiddenFields(either.asString());
        consent.put("action", "approve");
        assertEquals(303, alice.post(consent).statusCode());
        // Consented to: prompt=none's error goes straight back.
        Response silentAgain = alice.get(url(app, "scope", "openid", "acr_values", mfa, "prompt", "none"));
        assertEquals(303, silentAgain.statusCode(), silentAgain.asString());
        assertEquals("unmet_authentication_requirements", query(silentAgain.getHeader("Location")).get("error"));

        // erin has one (her codes are this test's alone): she signs in with it, and the ID token says so.
        Browser erin = new Browser();
        Response second = password(erin, url(app, "scope", "openid", "acr_values", mfa, "nonce", "n-acr"), "erin");
        Response done = code(erin, second, DirectoryDouble.totp(DirectoryDouble.currentStep()));
        assertEquals(303, done.statusCode(), done.asString());
        Map<String, String> answer = consentAndBack(erin, done.getHeader("Location"));
        var claims = JWTParser.parse((String) exchange(app, answer.get("code")).get("id_token")).getJWTClaimsSet();
        assertEquals(mfa, claims.getStringClaim("acr"));

        // A session that began before she had a factor (as when she added it in another browser): step-up
        // reads her factors when it is asked, and has her sign in again with it (RFC 9470), never "none yet".
        pool.preparedQuery("UPDATE login_session SET second_factor = false, amr = '{pwd}' WHERE person_id = 105")
                .execute().await().atMost(java.time.Duration.ofSeconds(10));
        Response stepUp = erin.get(url(app, "scope", "openid", "acr_values", mfa));
        assertEquals(200, stepUp.statusCode(), stepUp.asString());
        assertTrue(stepUp.asString().contains("id=\"sign_in\""), "the sign-in page: " + stepUp.asString());
        Response silentStepUp = erin.get(url(app, "scope", "openid", "acr_values", mfa, "prompt", "none"));
        assertEquals(303, silentStepUp.statusCode(), silentStepUp.asString());
        assertEquals("login_required", query(silentStepUp.getHeader("Location")).get("error"));
    }

    @Test
    void thePasswordAloneSaysSoInTheIdToken() throws Exception {
        App app = openIdApp(null);
        Browser browser = new Browser();
        Response signedIn = password(browser, url(app, "scope", "openid", "nonce", "n-pwd"), "alice");
        Map<String, String> answer = consentAndBack(browser, signedIn.getHeader("Location"));
        Map<String, Object> tokens = exchange(app, answer.get("code"));
        var claims = JWTParser.parse((String) tokens.get("id_token")).getJWTClaimsSet();
        assertEquals(List.of("pwd"), claims.getStringListClaim("amr"));
        assertEquals("https://refeds.org/profile/sfa", claims.getStringClaim("acr"));
        assertNull(claims.getClaim("nonce-other"));
        assertSignedInAs("https://refeds.org/profile/sfa", List.of("pwd"), app, (String) tokens.get("access_token"),
                claims.getDateClaim("auth_time").toInstant().getEpochSecond());
        // The password grant is a password alone too; a client acting for itself has no sign-in to tell.
        Map<String, Object> granted = post("/oauth/token", app, "grant_type", "password", "username", "alice", "password",
                DirectoryDouble.PEOPLE.get("alice").password(), "scope", "user").statusCode(200).extract().jsonPath().getMap("$");
        post("/oauth/introspect", app, "token", (String) granted.get("access_token")).statusCode(200)
                .body("acr", equalTo("https://refeds.org/profile/sfa")).body("amr", equalTo(List.of("pwd")));
    }

    /** Introspection of the token says how its person signed in: acr, amr and auth_time. */
    static void assertSignedInAs(String acr, List<String> amr, App app, String accessToken, long authTime) {
        post("/oauth/introspect", app, "token", accessToken).statusCode(200).body("active", equalTo(true))
                .body("acr", equalTo(acr)).body("amr", equalTo(amr))
                .body("auth_time", equalTo((int) authTime));
    }

    static String hrefOf(String html, String id) {
        var m = java.util.regex.Pattern.compile("id=\"" + id + "\" href=\"([^\"]+)\"").matcher(html);
        if (!m.find()) {
            m = java.util.regex.Pattern.compile("href=\"([^\"]+)\"[^>]*id=\"" + id + "\"").matcher(html);
            assertTrue(m.find(), "a link " + id + " in " + html);
        }
        return m.group(1).replace("&amp;", "&");
    }

    /** The device page signs in with the same second step: the code's form posts back there, with the user code. */
    @Test
    void theDevicePageAsksForTheSecondFactorToo() {
        App tool = DeviceFlowTest.tool("user");
        Map<String, Object> started = DeviceFlowTest.start(tool, "user");
        Browser browser = new Browser();
        Response page = browser.get("/oauth/device?user_code=" + started.get("user_code"));
        Map<String, String> form = hiddenFields(page.asString());
        form.put("login", "fay");
        form.put("password", DirectoryDouble.PEOPLE.get("fay").password());
        Response second = browser.post("/oauth/device", form);
        assertEquals(200, second.statusCode(), second.asString());
        assertTrue(second.asString().contains("action=\"/oauth/device\""), "the code's form posts back to the device page");
        assertEquals(started.get("user_code"), hiddenFields(second.asString()).get("user_code"), "and carries the user code");
        Map<String, String> code = hiddenFields(second.asString());
        code.put("code", DirectoryDouble.totp(DirectoryDouble.currentStep()));
        Response signedIn = browser.post("/oauth/device", code);
        assertEquals(303, signedIn.statusCode(), signedIn.asString());
        assertTrue(signedIn.getHeader("Location").contains("user_code="), signedIn.getHeader("Location"));
        assertTrue(browser.cookies.containsKey("ziggurat_session"));
    }
}
