package org.ziggurat.auth.pages;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.DirectoryDouble;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.Browser;

/**
 * The account page itself: a GET only shows (the sign-in form without a session); the profile
 * changes with the session's CSRF token; the confirmed address can be made public; a new address
 * needs the password and is unconfirmed after.
 */
@QuarkusTest
class AccountProfilePageTest {

    /** Signs carol in on the account page itself: back to it, with the session. */
    static Browser carolOnTheAccountPage() {
        return onTheAccountPage("carol", "carol password 3");
    }

    static Browser onTheAccountPage(String login, String password) {
        Browser browser = new Browser();
        Response page = browser.get("/account");
        assertEquals(200, page.statusCode());
        assertTrue(page.asString().contains("id=\"sign_in\""), page.asString());
        Map<String, String> form = AuthorizeFlowTest.hiddenFields(page.asString());
        form.put("login", login);
        form.put("password", password);
        Response signedIn = browser.post("/account", form);
        assertEquals(303, signedIn.statusCode(), signedIn.asString());
        assertTrue(signedIn.getHeader("Location").endsWith("/account"), signedIn.getHeader("Location"));
        return browser;
    }

    private static Map<String, String> form(String html, String action, String... pairs) {
        Map<String, String> form = new HashMap<>();
        form.put("csrf", AuthorizeFlowTest.hiddenFields(html).get("csrf"));
        form.put("action", action);
        for (int i = 0; i < pairs.length; i += 2) {
            form.put(pairs[i], pairs[i + 1]);
        }
        return form;
    }

    @Test
    void theProfileAndTheAddressChangeOnlyByTheSessionsForms() {
        Browser carol = carolOnTheAccountPage();
        String html = carol.get("/account").asString();
        assertTrue(html.contains("id=\"username\">carol<"), html);
        assertTrue(html.contains("carol@example.org</strong>: confirmed."), html);
        assertTrue(html.contains("id=\"show_email\""), "a confirmed address can be public: " + html);

        assertEquals(403, carol.post("/account", Map.of("action", "profile", "csrf", "forged", "display_name", "Mallory"))
                .statusCode());
        Response saved = carol.post("/account", form(html, "profile", "display_name", "Carol Day", "show_email", "yes"));
        assertEquals(303, saved.statusCode(), saved.asString());
        String after = carol.get("/account").asString();
        assertTrue(after.contains("value=\"Carol Day\""), after);
        assertTrue(after.contains("name=\"show_email\" value=\"yes\" checked"), after);
        assertEquals(422, carol.post("/account", form(html, "profile", "display_name", " ")).statusCode());

        // A new address: the password first; taken or malformed addresses change nothing.
        assertEquals(401, carol.post("/account", form(html, "email_change", "email", "carol@new.example",
                "password", "not carol's")).statusCode());
        assertEquals(409, carol.post("/account", form(html, "email_change", "email", "ALICE@example.org",
                "password", "carol password 3")).statusCode());
        assertEquals(422, carol.post("/account", form(html, "email_change", "email", "no address",
                "password", "carol password 3")).statusCode());
        Response changed = carol.post("/account", form(html, "email_change", "email", "carol@new.example",
                "password", "carol password 3"));
        assertEquals(200, changed.statusCode(), changed.asString());
        assertTrue(changed.asString().contains("We mailed a link to carol@new.example"), changed.asString());
        String moved = carol.get("/account").asString();
        assertTrue(moved.contains("carol@new.example</strong>: not confirmed yet."), moved);
        assertFalse(moved.contains("id=\"show_email\""), "an unconfirmed address cannot be public");

        int resent = org.ziggurat.auth.ProfileDouble.RESENT.get();
        assertEquals(200, carol.post("/account", form(moved, "email_resend")).statusCode());
        assertEquals(resent + 1, org.ziggurat.auth.ProfileDouble.RESENT.get());
        assertEquals(400, carol.post("/account", form(moved, "nonsense")).statusCode());
    }

    /**
     * The standard profile claims on the same form as the name: shown back, refused with the
     * directory's rules (the page names what to fix), removed when left empty.
     */
    @Test
    void theProfileFormSetsAndRemovesTheStandardClaims() {
        Browser carol = carolOnTheAccountPage();
        String html = carol.get("/account").asString();
        String name = html.replaceFirst("(?s).*id=\"display_name\" name=\"display_name\" value=\"([^\"]*)\".*", "$1");
        for (String field : List.of("given_name", "family_name", "website", "locale", "zoneinfo")) {
            assertTrue(html.contains("id=\"" + field + "\" name=\"" + field + "\""), field + ": " + html);
        }
        assertEquals(403, carol.post("/account", Map.of("action", "profile", "csrf", "forged", "display_name", name,
                "given_name", "Mallory")).statusCode());
        Response saved = carol.post("/account", form(html, "profile", "display_name", name, "given_name", "Caroline",
                "family_name", "Day", "website", "https://carol.example/", "locale", "fr-ca", "zoneinfo", "America/Montreal"));
        assertEquals(303, saved.statusCode(), saved.asString());
        String after = carol.get("/account").asString();
        for (String shown : List.of("value=\"Caroline\"", "value=\"Day\"", "value=\"https://carol.example/\"",
                "value=\"fr-CA\"", "value=\"America/Montreal\"")) {
            assertTrue(after.contains(shown), shown + ": " + after);
        }

        Response refused = carol.post("/account", form(after, "profile", "display_name", name, "given_name", "Caroline",
                "website", "javascript:alert(1)", "zoneinfo", "Mars/Olympus"));
        assertEquals(422, refused.statusCode(), refused.asString());
        assertTrue(refused.asString().contains("https:// or http://") && refused.asString().contains("Europe/Paris")
                && !refused.asString().contains("given name of"), "the page names what to fix: " + refused.asString());
        assertTrue(carol.get("/account").asString().contains("value=\"America/Montreal\""), "nothing was changed");

        // A form without the fields (a page from before they were there) leaves them as they are.
        String before = carol.get("/account").asString();
        assertEquals(303, carol.post("/account", form(before, "profile", "display_name", name)).statusCode());
        assertTrue(carol.get("/account").asString().contains("value=\"America/Montreal\""), "a field not sent is kept");
        // Left empty: removed.
        assertEquals(303, carol.post("/account", form(after, "profile", "display_name", name, "given_name", "",
                "family_name", "", "website", "", "locale", "", "zoneinfo", "")).statusCode());
        String cleared = carol.get("/account").asString();
        assertFalse(cleared.contains("value=\"Caroline\"") || cleared.contains("value=\"fr-CA\""), cleared);
        assertTrue(cleared.contains("id=\"zoneinfo\" name=\"zoneinfo\" value=\"\""), cleared);
    }

    @Test
    void aGetChangesNothingAndAFormWithoutASessionSignsInFirst() {
        int logged = DirectoryDouble.SECURITY_LOG.size();
        Browser nobody = new Browser();
        Response page = nobody.get("/account");
        assertEquals(200, page.statusCode());
        assertTrue(page.asString().contains("id=\"sign_in\""));
        Response refused = nobody.post("/account", Map.of("action", "profile", "csrf", "x", "display_name", "Eve"));
        assertEquals(401, refused.statusCode());
        assertEquals(400, io.restassured.RestAssured.given().contentType("application/json").body("{}").post("/account")
                .statusCode());
        assertEquals(logged, DirectoryDouble.SECURITY_LOG.size());
    }

    /**
     * The data and the deletion: both after the password; the export is a file; deleting needs the
     * username typed again, ends every token and sign-in here at once, and the page signs out.
     */
    @Test
    void theDataIsDownloadedAndTheAccountDeletedAfterThePassword() {
        String script = (String) org.ziggurat.auth.OAuthTestSupport.post("/oauth/token", null, "grant_type", "password",
                "username", "hal", "password", "hal password 8", "scope", "user").statusCode(200).extract().path("access_token");
        Browser hal = onTheAccountPage("hal", "hal password 8");
        Browser halElsewhere = onTheAccountPage("hal", "hal password 8");
        String html = hal.get("/account").asString();
        assertEquals(401, hal.post("/account", form(html, "export", "password", "wrong")).statusCode());
        Response export = hal.post("/account", form(html, "export", "password", "hal password 8"));
        assertEquals(200, export.statusCode(), export.asString());
        assertTrue(export.getHeader("Content-Disposition").contains("ziggurat-hal.json"), export.getHeader("Content-Disposition"));
        assertEquals("no-store", export.getHeader("Cache-Control"));
        assertEquals("hal", export.jsonPath().getString("directory.profile.username"));

        assertEquals(422, hal.post("/account", form(html, "delete", "confirm", "someone", "password", "hal password 8"))
                .statusCode());
        assertEquals(401, hal.post("/account", form(html, "delete", "confirm", "hal", "password", "wrong")).statusCode());
        org.ziggurat.auth.OAuthTestSupport.introspect(script).body("active", org.hamcrest.Matchers.equalTo(true));
        Response deleted = hal.post("/account", form(html, "delete", "confirm", "HAL", "password", "hal password 8"));
        assertEquals(200, deleted.statusCode(), deleted.asString());
        assertTrue(deleted.asString().contains("id=\"account_deleted\""), deleted.asString());
        assertEquals("", deleted.getDetailedCookie(org.ziggurat.auth.authorization.LoginSessions.COOKIE).getValue());
        org.ziggurat.auth.OAuthTestSupport.introspect(script).body("active", org.hamcrest.Matchers.equalTo(false));
        assertTrue(halElsewhere.get("/account").asString().contains("id=\"sign_in\""), "signed out everywhere");
    }

    /** Someone who alone administers an organization with other members is told which, and nothing is deleted. */
    @Test
    void anAdministratorWithMembersIsToldWhatToHandOverFirst() {
        Browser bob = onTheAccountPage("bob", "bob password 12");
        String html = bob.get("/account").asString();
        Response refused = bob.post("/account", form(html, "delete", "confirm", "bob", "password", "bob password 12"));
        assertEquals(409, refused.statusCode());
        assertTrue(refused.asString().contains("You alone administer vault"), refused.asString());
        assertTrue(bob.get("/account").asString().contains("id=\"delete_account\""), "still signed in");
    }

    /** An account deleted through the API, before its erasure reached this service: its session ends at the next page. */
    @Test
    void aSessionOfAnAccountDeletedElsewhereEndsAtTheNextPage() {
        Browser ivy = onTheAccountPage("ivy", "ivy password 9");
        org.ziggurat.auth.ProfileDouble.DELETED.add(109L);
        Response security = ivy.get("/account/security");
        assertEquals(200, security.statusCode());
        assertTrue(security.asString().contains("That account no longer exists."), security.asString());
        Response page = ivy.get("/account");
        assertEquals(200, page.statusCode());
        assertTrue(page.asString().contains("id=\"sign_in\""), page.asString());
        // Deleted between the password's check and the sign-in's log entry: signed in, then out at the next page.
        Browser again = onTheAccountPage("ivy", "ivy password 9");
        assertTrue(again.get("/account").asString().contains("That account no longer exists."));
    }

    /** The avatar form: multipart, the session's CSRF token, an image the directory takes. */
    @Test
    void anAvatarIsUploadedWithTheSessionsForm() throws Exception {
        Browser carol = carolOnTheAccountPage();
        String html = carol.get("/account").asString();
        assertTrue(html.contains("id=\"avatar_form\"") && html.contains("enctype=\"multipart/form-data\""), html);
        String csrf = AuthorizeFlowTest.hiddenFields(html).get("csrf");
        java.awt.image.BufferedImage picture = new java.awt.image.BufferedImage(8, 8, java.awt.image.BufferedImage.TYPE_INT_RGB);
        java.io.ByteArrayOutputStream png = new java.io.ByteArrayOutputStream();
        javax.imageio.ImageIO.write(picture, "png", png);

        assertEquals(403, upload(carol, "forged", png.toByteArray()).statusCode());
        assertEquals(422, upload(carol, csrf, "not an image".getBytes(java.nio.charset.StandardCharsets.UTF_8)).statusCode());
        assertEquals(401, upload(new Browser(), csrf, png.toByteArray()).statusCode());
        // A body that is no multipart (its boundary never comes) is the request's fault, not the database's.
        assertEquals(400, io.restassured.RestAssured.given().redirects().follow(false).cookies(carol.cookies)
                .contentType("multipart/form-data; boundary=xyz").body("hello".getBytes(java.nio.charset.StandardCharsets.UTF_8)).post("/account/avatar").statusCode());
        Response done = upload(carol, csrf, png.toByteArray());
        assertEquals(303, done.statusCode(), done.asString());
        org.junit.jupiter.api.Assertions.assertArrayEquals(png.toByteArray(), org.ziggurat.auth.ProfileDouble.AVATARS.get(103L));
    }

    /** As a browser sends the form: multipart/form-data with its length (the pages take no chunked bodies). */
    static Response upload(Browser browser, String csrf, byte[] image) throws java.io.IOException {
        String boundary = "----zigguratTestBoundary";
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        body.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n" + csrf + "\r\n--" + boundary
                + "\r\nContent-Disposition: form-data; name=\"avatar\"; filename=\"me.png\"\r\nContent-Type: image/png\r\n\r\n")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        body.write(image);
        body.write(("\r\n--" + boundary + "--\r\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return io.restassured.RestAssured.given().redirects().follow(false).cookies(browser.cookies)
                .contentType("multipart/form-data; boundary=" + boundary).body(body.toByteArray()).post("/account/avatar");
    }
}
