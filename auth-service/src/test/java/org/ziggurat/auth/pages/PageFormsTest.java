package org.ziggurat.auth.pages;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport;
import org.ziggurat.auth.authorization.LoginSessions;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.Browser;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.hiddenFields;

/**
 * Every page takes its forms one way: a body that is no form is the error page; the sign-in
 * actions need the sign-in form's cookie; every other action the session's token, and a form with
 * another is refused with a page that changes nothing; without a session, the page asks to sign in
 * again; a change that needs the password again says so in that page's words. Each answer is a
 * page under the pages' headers, whose form may lead nowhere but here.
 */
@QuarkusTest
class PageFormsTest {

    private static final String CHANGED = "The form was not sent by this site. Nothing was changed.";
    private static final String SIGN_IN_FORM = "The sign-in form expired or was not sent by this site. Start again.";
    private static final String SESSION_ENDED = "Your session ended. Sign in again.";

    /** A page with the pages' headers, whose forms lead only here. */
    private static void page(Response answer, int status, String text) {
        assertEquals(status, answer.statusCode(), answer.asString());
        assertTrue(answer.asString().contains(text), answer.asString());
        assertTrue(answer.getContentType().startsWith("text/html"), answer.getContentType());
        String csp = answer.getHeader("Content-Security-Policy");
        assertNotNull(csp, "the page has its CSP");
        assertTrue(csp.contains("default-src 'none'") && csp.contains("form-action 'self';")
                && csp.contains("frame-ancestors 'none'"), csp);
        assertEquals("DENY", answer.getHeader("X-Frame-Options"));
        assertEquals("no-store", answer.getHeader("Cache-Control"));
        assertNull(answer.getHeader("Location"));
    }

    private static Map<String, String> form(String... pairs) {
        Map<String, String> form = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            form.put(pairs[i], pairs[i + 1]);
        }
        return form;
    }

    private static String csrf(Browser browser, String path) {
        return hiddenFields(browser.get(path).asString()).get("csrf");
    }

    @Test
    void aBodyThatIsNoFormIsTheErrorPage() {
        for (String path : List.of("/account", "/account/security", "/oauth/device", "/oauth/logout",
                "/account/federation/start", "/account/federation/callback", "/account/federation/callback/institution",
                "/account/federation/identity", "/account/federation/confirmation", "/account/email/verification",
                "/account/password/recovery", "/account/password/reset")) {
            Response answer = given().redirects().follow(false).contentType("text/plain").body("action=login").post(path);
            page(answer, 400, "The request body must be application/x-www-form-urlencoded.");
        }
        // The authorization endpoint's POST is also the API's: its answer is OAuth's.
        given().redirects().follow(false).contentType("text/plain").body("action=login").post("/oauth/authorize")
                .then().statusCode(400).contentType("application/json");
    }

    @Test
    void aProvidersAnswerComesOnlyToAnAddressThatCanBeAProviders() {
        Browser browser = new Browser();
        for (String path : List.of("/account/federation/callback", "/account/federation/callback/institution",
                "/account/federation/callback/Not_A_Provider")) {
            page(browser.get(path + (path.endsWith("Not_A_Provider") ? "?state=s&code=c" : "?code=c")), 400,
                    "This is not an answer of a sign-in that began here. Start again.");
        }
        page(browser.post("/account/federation/callback/Not_A_Provider", form("state", "s", "code", "c")), 400,
                "This sign-in took too long, was finished already, or began in another browser. Start again.");
        page(browser.post("/account/federation/callback", form("state", "s", "code", "c")), 400,
                "This sign-in took too long, was finished already, or began in another browser. Start again.");
    }

    @Test
    void theSessionsFormsRefuseAnotherToken() throws java.io.IOException {
        Browser nia = AccountProfilePageTest.onTheAccountPage("nia", "nia password 14");
        page(nia.post("/account/security", form("action", "totp_start", "csrf", "forged")), 403, CHANGED);
        page(nia.post("/account", form("action", "profile", "csrf", "forged", "display_name", "Mallory")), 403, CHANGED);
        page(AccountProfilePageTest.upload(nia, "forged", new byte[] {(byte) 0x89, 'P', 'N', 'G'}), 403, CHANGED);
        page(nia.post("/account/federation/start", form("intent", "link", "provider", "institution", "csrf", "forged")),
                403, CHANGED);
        page(nia.post("/oauth/device", form("action", "verify", "csrf", "forged", "user_code", "BCDF-GHJK")), 403,
                "The form was not sent by this site. Nothing was shared.");
        page(nia.post("/oauth/logout", form("action", "logout", "csrf", "forged")), 403,
                "The sign-out form was not sent by this site. You are still signed in.");

        OAuthTestSupport.App app = OAuthTestSupport.createApp(true, "public user");
        Response consent = nia.get(AuthorizeFlowTest.authorizeUrl(app, null, "user", "s-forged", null));
        assertEquals(200, consent.statusCode(), consent.asString());
        Map<String, String> approve = hiddenFields(consent.asString());
        approve.put("action", "approve");
        approve.put("csrf", "forged");
        page(nia.post(approve), 403, "The consent form was not sent by this site. Nothing was shared.");

        String account = nia.get("/account").asString();
        assertTrue(account.contains("id=\"username\">nia<"), "still signed in: " + account);
        assertFalse(account.contains("Mallory"), account);
    }

    @Test
    void withoutASessionThePageAsksToSignInAgain() {
        Browser nobody = new Browser();
        for (String path : List.of("/account/security", "/account")) {
            for (String action : List.of("totp_start", "profile", "no_such_action")) {
                Response again = nobody.post(path, form("action", action, "csrf", "any"));
                page(again, 401, SESSION_ENDED);
                assertTrue(again.asString().contains("id=\"sign_in\""), again.asString());
                assertNotNull(again.getDetailedCookie(LoginSessions.LOGIN_CSRF_COOKIE), "a fresh sign-in form");
            }
        }
        page(nobody.post("/oauth/device", form("action", "verify", "csrf", "any", "user_code", "BCDF-GHJK")), 401,
                SESSION_ENDED);
        page(nobody.post("/oauth/device", form("action", "no_such_action", "csrf", "any")), 400, "Unknown action.");
        page(nobody.post("/account/federation/start", form("intent", "link", "provider", "institution", "csrf", "any")),
                401, SESSION_ENDED);
        page(nobody.post("/account/federation/start", form("provider", "no-such-provider", "csrf", "any")), 400,
                "There is no such way to sign in here.");
        Response signedOut = nobody.post("/oauth/logout", form("action", "logout", "csrf", "any"));
        assertEquals(200, signedOut.statusCode(), "nobody to sign out: " + signedOut.asString());
    }

    @Test
    void theSignInFormsNeedTheirCookie() {
        for (String path : List.of("/account", "/account/security", "/oauth/device")) {
            for (String action : List.of("login", "second_factor", "passkey")) {
                Browser browser = new Browser();
                Map<String, String> fields = hiddenFields(browser.get(path).asString());
                browser.cookies.remove(LoginSessions.LOGIN_CSRF_COOKIE);
                fields.putAll(form("action", action, "login", "nia", "password", "nia password 14", "code", "123456",
                        "credential", "{}"));
                page(browser.post(path, fields), 403, SIGN_IN_FORM);
                assertNull(browser.cookies.get(LoginSessions.COOKIE), "nobody signed in");
            }
        }
        Browser browser = new Browser();
        Map<String, String> fields = hiddenFields(browser.get("/account").asString());
        browser.cookies.remove(LoginSessions.LOGIN_CSRF_COOKIE);
        fields.put("provider", "institution");
        page(browser.post("/account/federation/start", fields), 403, SIGN_IN_FORM);
    }

    @Test
    void aConfirmationRefusedSaysSoInThePagesWords() {
        Browser nia = AccountProfilePageTest.onTheAccountPage("nia", "nia password 14");
        String csrf = csrf(nia, "/account");
        Response security = nia.post("/account/security", form("action", "totp_remove", "csrf", csrf));
        page(security, 401, "Confirm with your password (or a passkey): it was missing or not right. Nothing was changed.");
        assertTrue(security.asString().contains("id=\"two_factor_state\""), "the security section again");
        Response account = nia.post("/account", form("action", "export", "csrf", csrf, "password", "not nia's"));
        page(account, 401, "Confirm with your password: it was missing or not right. Nothing was changed.");
        assertTrue(account.asString().contains("id=\"export_form\""), "the account page again");
        page(nia.post("/account/federation/start", form("intent", "link", "provider", "institution", "csrf", csrf,
                        "password", "not nia's")), 401,
                "Confirm with your password to link another account: it was missing or not right. Nothing was linked.");
    }
}
