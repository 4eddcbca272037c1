package org.ziggurat.auth.pages;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.DirectoryDouble;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The page a verification link opens: a GET shows a Confirm button and changes nothing (mail
 * scanners follow links); the POST proves the address, once; a link that no longer works says so.
 */
@QuarkusTest
class EmailVerificationPageTest {

    @Test
    void theLinkAsksBeforeItConfirmsAndConfirmsOnce() {
        int before = DirectoryDouble.EMAIL_VERIFICATIONS.get();
        Response page = given().get("/account/email/verification?token=" + DirectoryDouble.EMAIL_TOKEN);
        assertEquals(200, page.statusCode());
        assertTrue(page.asString().contains("id=\"confirm\""), page.asString());
        assertTrue(page.asString().contains("value=\"" + DirectoryDouble.EMAIL_TOKEN + "\""));
        assertEquals("no-referrer", page.getHeader("Referrer-Policy"), "the token leaks through no Referer");
        assertTrue(page.getHeader("Content-Security-Policy").contains("default-src 'none'"));
        given().get("/account/email/verification?token=" + DirectoryDouble.EMAIL_TOKEN).then().statusCode(200);
        assertEquals(before, DirectoryDouble.EMAIL_VERIFICATIONS.get(), "a GET confirms nothing");

        Response confirmed = given().contentType("application/x-www-form-urlencoded")
                .formParam("token", DirectoryDouble.EMAIL_TOKEN).post("/account/email/verification");
        assertEquals(200, confirmed.statusCode(), confirmed.asString());
        assertTrue(confirmed.asString().contains("id=\"email_verified\""), confirmed.asString());
        assertTrue(confirmed.asString().contains("alice@example.org"));

        Response again = given().contentType("application/x-www-form-urlencoded")
                .formParam("token", DirectoryDouble.EMAIL_TOKEN).post("/account/email/verification");
        assertEquals(410, again.statusCode());
        assertTrue(again.asString().contains("id=\"link_gone\""));
        assertFalse(again.asString().contains("id=\"email_verified\""));
    }

    @Test
    void aLinkWithoutATokenOrWithAStrangeOneIsGone() {
        Response none = given().get("/account/email/verification");
        assertEquals(410, none.statusCode());
        assertTrue(none.asString().contains("id=\"link_gone\""));
        given().contentType("application/x-www-form-urlencoded").formParam("token", "<script>")
                .post("/account/email/verification").then().statusCode(410);
        Response escaped = given().get("/account/email/verification?token=%22%3E%3Cscript%3E");
        assertFalse(escaped.asString().contains("\"><script>"), "the token is escaped in the page");
    }
}
