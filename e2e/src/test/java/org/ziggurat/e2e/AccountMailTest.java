package org.ziggurat.e2e;

import jakarta.mail.internet.MimeMessage;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mail through the whole stack: directory-service's two replicas share one outbox and send to a
 * real SMTP server (GreenMail, {@link MailServer}). Sign-up mails a link that confirms the address
 * in a browser (Chromium); a change to a person's second factors made on the account page is
 * mailed to them once; a mail server that is away when it happens gets the mail once it is back,
 * once.
 */
class AccountMailTest {

    static final Duration DELIVERY = Duration.ofSeconds(30);
    /** Several rounds of both replicas' outbox polls (500 ms in the stack): time for a second copy to show. */
    static final Duration QUIET = Duration.ofSeconds(3);

    static String address(Platform.Person person) {
        return person.username() + "@example.org";
    }

    /** The security notices the person got (not the sign-up's verification mail). */
    static List<MimeMessage> mailTo(Platform.Person person) {
        return Stack.get().mail().to(address(person)).stream().filter(m -> subject(m).startsWith("Your account's security")).toList();
    }

    static String subject(MimeMessage m) {
        try {
            return m.getSubject();
        } catch (jakarta.mail.MessagingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** What auth-service tells relying parties of the person (userinfo's source), asked of a directory replica. */
    static boolean emailVerified(Platform.Person person, String replica) throws Exception {
        String token = org.ziggurat.platform.testing.TestTokens.serviceSignedWith(Stack.get().keysDirectory(), "auth-service");
        return io.restassured.RestAssured.given().header("X-Platform-Token", token)
                .get(Stack.get().instanceUrl(replica) + "/internal/people/" + person.id() + "/claims")
                .then().statusCode(200).extract().path("email_verified");
    }

    @Test
    void theSignUpMailsALinkThatConfirmsTheAddressInABrowser() throws Exception {
        Platform.Person person = Platform.signUp("verify");
        Awaitility.await().atMost(DELIVERY).until(() -> !Stack.get().mail().to(address(person)).isEmpty());
        MimeMessage mail = Stack.get().mail().to(address(person)).get(0);
        assertEquals("Confirm your e-mail address", mail.getSubject());
        java.util.regex.Matcher link = java.util.regex.Pattern.compile("(\\S+/account/email/verification\\?token=\\S+)")
                .matcher(mail.getContent().toString());
        assertTrue(link.find(), mail.getContent().toString());
        assertTrue(link.group(1).startsWith(Platform.api() + "/account/email/verification?token="), link.group(1));
        assertFalse(emailVerified(person, "directory-service"));

        org.openqa.selenium.WebDriver driver = BrowserTest.browser();
        try {
            var wait = new org.openqa.selenium.support.ui.WebDriverWait(driver, Duration.ofSeconds(20));
            driver.get(link.group(1));
            wait.until(org.openqa.selenium.support.ui.ExpectedConditions.presenceOfElementLocated(
                    org.openqa.selenium.By.id("confirm")));
            // Opening the link (as a mail scanner would) confirmed nothing.
            assertFalse(emailVerified(person, "directory-service-2"));
            driver.findElement(org.openqa.selenium.By.id("confirm")).click();
            String done = wait.until(org.openqa.selenium.support.ui.ExpectedConditions.presenceOfElementLocated(
                    org.openqa.selenium.By.id("email_verified"))).getText();
            assertTrue(done.contains(address(person)), done);
            assertTrue(emailVerified(person, "directory-service"));
            assertTrue(emailVerified(person, "directory-service-2"));

            driver.get(link.group(1));
            wait.until(org.openqa.selenium.support.ui.ExpectedConditions.presenceOfElementLocated(
                    org.openqa.selenium.By.id("confirm"))).click();
            wait.until(org.openqa.selenium.support.ui.ExpectedConditions.presenceOfElementLocated(
                    org.openqa.selenium.By.id("link_gone")));
        } finally {
            driver.quit();
        }
    }

    @Test
    void aNewSecondFactorIsMailedToThePersonOnce() throws Exception {
        Platform.Person person = Platform.signUp("mail-notice");
        AccountSecurityForms.enrolAuthenticator(person);
        Awaitility.await().atMost(DELIVERY).until(() -> mailTo(person).size() == 1);
        MimeMessage mail = mailTo(person).get(0);
        assertTrue(mail.getSubject().startsWith("Your account's security changed: an authenticator app"), mail.getSubject());
        String body = mail.getContent().toString();
        assertTrue(body.contains("If it was not you"), body);
        assertTrue(body.contains(Platform.api() + "/account/security"), "the account page, as people reach it: " + body);
        Thread.sleep(QUIET.toMillis());
        assertEquals(1, mailTo(person).size(), "two replicas, one mail");
    }

    @Test
    void aMailServerThatWasAwayGetsTheMailOnceItIsBack() throws Exception {
        Platform.Person person = Platform.signUp("mail-away");
        MailServer server = Stack.get().mail();
        server.pause();
        try {
            AccountSecurityForms.enrolAuthenticator(person);
            // Both replicas try it while the server is away (retries every second or two).
            Thread.sleep(QUIET.toMillis());
            assertEquals(0, mailTo(person).size());
        } finally {
            server.resume();
        }
        Awaitility.await().atMost(DELIVERY).until(() -> mailTo(person).size() == 1);
        Thread.sleep(QUIET.toMillis());
        assertEquals(1, mailTo(person).size(), "once, after the failed attempts");
    }
}
