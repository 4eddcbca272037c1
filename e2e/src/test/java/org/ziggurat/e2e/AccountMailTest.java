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

    /** The person's outbox rows of this kind that {@code condition} (SQL on mail_outbox) holds for. */
    static long outbox(Platform.Person person, String kind, String condition) throws Exception {
        var server = Stack.get().server;
        try (var c = java.sql.DriverManager.getConnection(server.jdbcUrl(Stack.DATABASE), server.user(), server.password());
                var s = c.prepareStatement("SELECT count(*) FROM directory.mail_outbox WHERE recipient = ? AND kind = ? AND "
                        + condition)) {
            s.setString(1, address(person));
            s.setString(2, kind);
            try (var rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /**
     * Waits until the person's one mail of this kind is recorded sent: no replica claims it after
     * that, so the mail server's count is then final (a second copy would have been sent first).
     */
    static void awaitSentOnce(Platform.Person person, String kind) {
        Awaitility.await().atMost(DELIVERY).until(() -> outbox(person, kind, "sent_at IS NOT NULL") == 1
                && outbox(person, kind, "sent_at IS NULL") == 0);
    }

    /** Waits until the replicas tried the person's mail of this kind, twice or more, and failed (the server away). */
    static void awaitFailedAttempts(Platform.Person person, String kind) {
        Awaitility.await().atMost(DELIVERY).until(() -> outbox(person, kind,
                "sent_at IS NULL AND attempts >= 2 AND last_error IS NOT NULL") == 1);
    }

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
        awaitSentOnce(person, "totp_enabled");
        assertEquals(1, mailTo(person).size(), "two replicas, one mail");
    }

    @Test
    void aMailServerThatWasAwayGetsTheMailOnceItIsBack() throws Exception {
        Platform.Person person = Platform.signUp("mail-away");
        MailServer server = Stack.get().mail();
        server.pause();
        try {
            AccountSecurityForms.enrolAuthenticator(person);
            // The replicas try it while the server is away (retries every second or two).
            awaitFailedAttempts(person, "totp_enabled");
            assertEquals(0, mailTo(person).size());
        } finally {
            server.resume();
        }
        Awaitility.await().atMost(DELIVERY).until(() -> mailTo(person).size() == 1);
        awaitSentOnce(person, "totp_enabled");
        assertEquals(1, mailTo(person).size(), "once, after the failed attempts");
    }

    static String recoveryLink(Platform.Person person, int nth) throws Exception {
        Awaitility.await().atMost(DELIVERY).until(() -> withSubject(person, "Set a new password").size() >= nth);
        String body = withSubject(person, "Set a new password").get(nth - 1).getContent().toString();
        java.util.regex.Matcher link = java.util.regex.Pattern.compile("(\\S+/account/password/reset\\?token=\\S+)").matcher(body);
        assertTrue(link.find(), body);
        assertTrue(link.group(1).startsWith(Platform.api() + "/account/password/reset?token="), link.group(1));
        return link.group(1);
    }

    static List<MimeMessage> withSubject(Platform.Person person, String subject) {
        return Stack.get().mail().to(address(person)).stream().filter(m -> subject(m).equals(subject)).toList();
    }

    static io.restassured.response.Response form(String path, java.util.Map<String, String> fields) {
        return io.restassured.RestAssured.given().baseUri(Platform.api()).redirects().follow(false)
                .contentType("application/x-www-form-urlencoded").formParams(fields).post(path);
    }

    /**
     * Forgot the password: the link comes by mail (once, though the mail server was away when it
     * was asked for), sets a new one, and every sign-in with the old one ends: the refresh token
     * is dead, the old password refused, the new one works; the person is told by mail.
     */
    @Test
    void aForgottenPasswordIsSetAgainByMailAndTheOldSignInsEnd() throws Exception {
        Platform.Person person = Platform.signUp("forgot");
        String refresh = io.restassured.RestAssured.given().baseUri(Platform.api()).contentType("application/x-www-form-urlencoded")
                .formParams(java.util.Map.of("grant_type", "password", "username", person.username(), "password",
                        person.password(), "scope", "user"))
                .post("/oauth/token").then().statusCode(200).extract().path("refresh_token");

        MailServer server = Stack.get().mail();
        server.pause();
        try {
            io.restassured.response.Response asked = form("/account/password/recovery", java.util.Map.of("login", person.username()));
            assertEquals(200, asked.statusCode());
            assertTrue(asked.asString().contains("id=\"recovery_asked\""));
            awaitFailedAttempts(person, "password_recovery");
        } finally {
            server.resume();
        }
        String link = recoveryLink(person, 1);
        io.restassured.response.Response page = io.restassured.RestAssured.given().get(link);
        assertEquals(200, page.statusCode());
        String token = link.substring(link.indexOf("token=") + "token=".length());
        String fresh = "a fresh passphrase " + java.util.UUID.randomUUID();
        io.restassured.response.Response done = form("/account/password/reset",
                java.util.Map.of("token", java.net.URLDecoder.decode(token, java.nio.charset.StandardCharsets.UTF_8),
                        "password", fresh, "password_again", fresh));
        assertEquals(200, done.statusCode(), done.asString());

        io.restassured.RestAssured.given().baseUri(Platform.api()).contentType("application/x-www-form-urlencoded")
                .formParams(java.util.Map.of("grant_type", "refresh_token", "refresh_token", refresh))
                .post("/oauth/token").then().statusCode(400).body("error", org.hamcrest.Matchers.equalTo("invalid_grant"));
        Platform.Person renewed = new Platform.Person(person.id(), person.username(), fresh);
        Platform.accessToken(renewed, "user");
        io.restassured.RestAssured.given().baseUri(Platform.api()).contentType("application/x-www-form-urlencoded")
                .formParams(java.util.Map.of("grant_type", "password", "username", person.username(), "password",
                        person.password(), "scope", "user"))
                .post("/oauth/token").then().statusCode(400);
        Awaitility.await().atMost(DELIVERY).until(() -> mailTo(person).stream()
                .anyMatch(m -> subject(m).contains("your password was changed with a recovery link")));
        awaitSentOnce(person, "password_recovery");
        assertEquals(1, withSubject(person, "Set a new password").size(), "the link was mailed once");
    }

    /**
     * Scripts do what the account page does, with the account scope that the person's own
     * password-grant token may hold: the security log shows a wrong password given to the token
     * endpoint; the sign-in address changes with the current password (a token without the scope
     * cannot), mailed as on the page.
     */
    @Test
    void theAccountApiReadsTheSecurityLogAndChangesTheAddressWithTheAccountScope() {
        Platform.Person person = Platform.signUp("account-api");
        Platform.anonymous().formParams(java.util.Map.of("grant_type", "password", "username", person.username(),
                "password", "not the password")).post("/oauth/token").then().statusCode(400);
        String account = Platform.accessToken(person, "account");
        String user = Platform.accessToken(person, "user");
        Awaitility.await().atMost(DELIVERY).until(() -> Platform.as(account).get("/user/security-log").then().statusCode(200)
                .extract().<List<String>>path("kind").contains("sign_in_failed"));
        Platform.as(user).get("/user/security-log").then().statusCode(403);

        String moved = "api-" + address(person);
        Platform.as(user).contentType("application/json").body(java.util.Map.of("email", moved, "password", person.password()))
                .put("/user/email").then().statusCode(403);
        Platform.as(account).contentType("application/json").body(java.util.Map.of("email", moved, "password", person.password()))
                .put("/user/email").then().statusCode(200).body("changed", org.hamcrest.Matchers.is(true));
        Platform.as(user).get("/user").then().body("private_email", org.hamcrest.Matchers.equalTo(moved));
        Awaitility.await().atMost(DELIVERY).until(() -> Stack.get().mail().to(moved).stream()
                .anyMatch(m -> subject(m).equals("Confirm your e-mail address")));
        Awaitility.await().atMost(DELIVERY).until(() -> Stack.get().mail().to(address(person)).stream()
                .anyMatch(m -> subject(m).equals("Your account's sign-in address was changed")));
        Platform.as(account).get("/user/security-log").then().body("[0].kind", org.hamcrest.Matchers.equalTo("email_changed"));
    }

    /**
     * A password changed through the API, with the account scope and the current password: the
     * browser's sign-in ends (auth-service is told through directory-service's outbox), so does the
     * script's own client-less token, and the change is mailed.
     */
    @Test
    void aPasswordChangedThroughTheApiEndsTheSignInsEverywhere() {
        Platform.Person person = Platform.signUp("api-password");
        AccountSecurityForms browser = AccountSecurityForms.signedIn(person);
        assertTrue(browser.stillSignedIn());
        String account = Platform.accessToken(person, "account");
        Platform.as(account).contentType("application/json").body(java.util.Map.of("password", "not it",
                "new_password", "a scripted passphrase")).put("/user/password").then().statusCode(401);
        Platform.as(account).contentType("application/json").body(java.util.Map.of("password", person.password(),
                "new_password", "a scripted passphrase")).put("/user/password").then().statusCode(204);
        Awaitility.await().atMost(DELIVERY).until(() -> !browser.stillSignedIn());
        Awaitility.await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(250))
                .until(() -> Platform.as(account).get("/user").then().extract().statusCode() == 401);
        Platform.accessToken(new Platform.Person(person.id(), person.username(), "a scripted passphrase"), "user");
        Awaitility.await().atMost(DELIVERY).until(() -> mailTo(person).stream().anyMatch(m -> subject(m)
                .startsWith("Your account's security changed: your password was changed")));
    }
}
