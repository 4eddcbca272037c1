package org.ziggurat.auth.pages;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;
import io.vertx.core.json.JsonObject;
import org.ziggurat.auth.DirectoryDouble;
import org.ziggurat.auth.OAuthTestSupport.App;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.OAuthTestSupport.aliceTokens;
import static org.ziggurat.auth.OAuthTestSupport.createApp;
import static org.ziggurat.auth.OAuthTestSupport.introspect;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.Browser;
import static org.ziggurat.auth.pages.OpenIdConnectTest.signIn;
import static org.ziggurat.auth.pages.OpenIdConnectTest.url;

/**
 * The account page's applications: each application the person gave access, with its scopes and
 * last use; revoking one ends its tokens and forgets the consent; a grant that is not the
 * person's is not theirs to revoke.
 */
@QuarkusTest
class AccountApplicationsTest {

    @Test
    void anApplicationWithAccessIsListedAndItsAccessTakenAway() {
        App app = createApp(true, "user", "https://app.example.org/callback");
        Map<String, Object> tokens = aliceTokens(app, "user");
        Browser browser = new Browser();
        int logged = DirectoryDouble.SECURITY_LOG.size();
        signIn(browser, url(OpenIdConnectTest.openIdApp(null), "scope", "openid"));
        JsonObject signedIn = DirectoryDouble.SECURITY_LOG.stream().skip(logged)
                .filter(e -> e.getString("kind").equals("sign_in")).findFirst().orElseThrow();
        assertEquals(101L, signedIn.getLong("person_id"), "alice's log");
        assertTrue(signedIn.getString("user_agent").contains("Apache-HttpClient"), signedIn.encode());
        Response page = browser.get("/account/security");
        Matcher revoke = Pattern.compile("name=\"grant\" value=\"(\\d+)\">\\s*<button type=\"submit\" class=\"secondary\" "
                + "id=\"revoke_\\d+\">").matcher(page.asString());
        String html = page.asString();
        assertTrue(html.contains("id=\"applications\""), html);
        // The application of this test: the grant of the last one listed with its name.
        int at = html.lastIndexOf("<strong>Test app</strong> (user)");
        assertTrue(at > 0, html);
        assertTrue(html.substring(at).contains("last used"), "a token was issued to it");
        assertTrue(revoke.find(at), html);
        String grant = revoke.group(1);
        String csrf = AuthorizeFlowTest.hiddenFields(html).get("csrf");

        // Someone else's grant id (one that is nobody's, here) changes nothing for anyone.
        Response other = browser.post("/account/security", Map.of("action", "application_revoke", "csrf", csrf,
                "grant", "999999999"));
        assertEquals(303, other.statusCode());
        introspect((String) tokens.get("access_token")).body("active", equalTo(true));
        Response forged = browser.post("/account/security", Map.of("action", "application_revoke", "csrf", "forged",
                "grant", grant));
        assertEquals(403, forged.statusCode());
        introspect((String) tokens.get("access_token")).body("active", equalTo(true));

        int beforeRevoking = DirectoryDouble.SECURITY_LOG.size();
        browser.get("/account/security");
        assertEquals(beforeRevoking, DirectoryDouble.SECURITY_LOG.size(), "a GET records nothing, and the refusals above neither");
        Response revoked = browser.post("/account/security", Map.of("action", "application_revoke", "csrf", csrf,
                "grant", grant));
        assertEquals(303, revoked.statusCode(), revoked.asString());
        JsonObject revocation = DirectoryDouble.SECURITY_LOG.get(DirectoryDouble.SECURITY_LOG.size() - 1);
        assertEquals("application_revoked", revocation.getString("kind"));
        assertEquals("Test app", revocation.getString("detail"));
        introspect((String) tokens.get("access_token")).body("active", equalTo(false));
        assertFalse(browser.get("/account/security").asString().contains("name=\"grant\" value=\"" + grant + "\""),
                "no longer listed");
    }

    /** Where the person is signed in: each sign-in listed with its browser and address; one or all others signed out. */
    @Test
    void signInsAreListedAndOthersSignedOut() {
        Browser here = new Browser();
        signIn(here, url(OpenIdConnectTest.openIdApp(null), "scope", "openid"));
        Browser there = new Browser();
        signIn(there, url(OpenIdConnectTest.openIdApp(null), "scope", "openid"));
        Browser third = new Browser();
        signIn(third, url(OpenIdConnectTest.openIdApp(null), "scope", "openid"));

        String html = here.get("/account/security").asString();
        assertTrue(html.contains("id=\"this_session\""), html);
        assertTrue(html.contains("Apache-HttpClient"), "the browser that signed in: " + html);
        Matcher ends = Pattern.compile("id=\"end_session_(\\d+)\"").matcher(html);
        java.util.List<String> others = new java.util.ArrayList<>();
        while (ends.find()) {
            others.add(ends.group(1));
        }
        assertTrue(others.size() >= 2, html);
        String csrf = AuthorizeFlowTest.hiddenFields(html).get("csrf");
        assertEquals(303, here.post("/account/security", Map.of("action", "session_end", "csrf", csrf, "session",
                "999999999")).statusCode(), "an id that is not one of the person's sessions ends nothing");
        assertTrue(there.get("/account/security").asString().contains("id=\"change_password\""));
        assertEquals(303, here.post("/account/security", Map.of("action", "session_end", "csrf", csrf, "session",
                others.get(0))).statusCode());
        int signedOut = (there.get("/account/security").asString().contains("id=\"sign_in\"") ? 1 : 0)
                + (third.get("/account/security").asString().contains("id=\"sign_in\"") ? 1 : 0);
        assertEquals(1, signedOut, "exactly one other sign-in ended");

        assertEquals(303, here.post("/account/security", Map.of("action", "sessions_end_others", "csrf", csrf)).statusCode());
        assertTrue(there.get("/account/security").asString().contains("id=\"sign_in\""));
        assertTrue(third.get("/account/security").asString().contains("id=\"sign_in\""));
        String after = here.get("/account/security").asString();
        assertTrue(after.contains("id=\"this_session\""), "this one goes on");
        assertFalse(after.contains("id=\"end_other_sessions\""), "alice has no other sign-in now: " + after);
    }
}
