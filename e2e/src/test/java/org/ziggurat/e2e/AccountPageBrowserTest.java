package org.ziggurat.e2e;

import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.AuthorizationRequest;
import com.nimbusds.oauth2.sdk.AuthorizationResponse;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.net.URI;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.e2e.Platform.as;

/**
 * The account page in Chromium, against the whole platform: the applications a person gave
 * access are listed with their scopes; revoking one ends its token, which the gateway then refuses.
 */
class AccountPageBrowserTest {

    @Test
    void revokingAnApplicationOnTheAccountPageEndsItsAccess() throws Exception {
        Platform.Person person = Platform.signUp("revoker");
        String own = Platform.accessToken(person, "user", "admin");
        OAuthJourneyTest.App app = OAuthJourneyTest.application(own, "http://127.0.0.1:9/callback");
        CodeVerifier verifier = new CodeVerifier();
        AuthorizationRequest request = new AuthorizationRequest.Builder(new ResponseType(ResponseType.Value.CODE), app.id())
                .endpointURI(Platform.metadata().getAuthorizationEndpointURI()).redirectionURI(app.redirect())
                .scope(new Scope("user")).state(new State()).codeChallenge(verifier, CodeChallengeMethod.S256).build();
        URI callback = new OAuthJourneyTest.BrowserlessUser(person).authorize(request.toURI());
        String token = OAuthJourneyTest.exchange(app, new AuthorizationCodeGrant(
                        AuthorizationResponse.parse(callback).toSuccessResponse().getAuthorizationCode(), app.redirect(), verifier))
                .toSuccessResponse().getTokens().getAccessToken().getValue();
        as(token).get("/user").then().statusCode(200);

        WebDriver driver = BrowserTest.browser();
        try {
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(20));
            driver.get(Platform.api() + "/account/security");
            SecondFactorBrowserTest.signInWithPassword(driver, wait, person);
            String listed = wait.until(ExpectedConditions.presenceOfElementLocated(By.id("applications"))).getText();
            assertTrue(listed.contains("Field notebook") && listed.contains("user"), listed);
            driver.findElement(By.cssSelector("#applications button")).click();
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("no_applications")));
        } finally {
            driver.quit();
        }
        // The gateway keeps a token's answer for a moment (2 s here): then it is refused.
        Awaitility.await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(250))
                .until(() -> as(token).get("/user").then().extract().statusCode() == 401);
        as(own).get("/user").then().statusCode(200);
    }

    /** Where the person is signed in: the other browser listed, and signed out from this one. */
    @Test
    void signingOutEverywhereElseEndsTheOtherBrowsersSignIn() throws Exception {
        Platform.Person person = Platform.signUp("two-browsers");
        AccountSecurityForms other = AccountSecurityForms.signedIn(person);
        assertTrue(other.stillSignedIn());
        WebDriver driver = BrowserTest.browser();
        try {
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(20));
            driver.get(Platform.api() + "/account/security");
            SecondFactorBrowserTest.signInWithPassword(driver, wait, person);
            String listed = wait.until(ExpectedConditions.presenceOfElementLocated(By.id("sessions"))).getText();
            assertTrue(listed.contains("(this browser)") && listed.contains("Apache-HttpClient"), listed);
            // The same page comes back: wait for the new document, not for an element both have.
            BrowserTest.submitAndAwaitNextPage(driver, wait, driver.findElement(By.id("end_other_sessions")));
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("this_session")));
            assertTrue(driver.findElements(By.id("end_other_sessions")).isEmpty(), "no other sign-in is left");
            // Both sign-ins are in the security log, each with its browser.
            String log = driver.findElement(By.id("account_events")).getText();
            assertTrue(log.contains("signed in") && log.contains("HeadlessChrome") && log.contains("Apache-HttpClient"), log);
        } finally {
            driver.quit();
        }
        org.junit.jupiter.api.Assertions.assertFalse(other.stillSignedIn(), "the other browser is signed out");
        // Chromium was a device the account had not signed in from: the person is told, once.
        String notice = "A sign-in to your account from a new device";
        Awaitility.await().atMost(AccountMailTest.DELIVERY).until(() -> newDeviceNotices(person, notice).size() == 1);
        String body = newDeviceNotices(person, notice).get(0).getContent().toString();
        assertTrue(body.contains("HeadlessChrome") && body.contains("/account/security"), body);
        AccountMailTest.awaitSentOnce(person, "sign_in");
        org.junit.jupiter.api.Assertions.assertEquals(1, newDeviceNotices(person, notice).size());
    }

    private static java.util.List<jakarta.mail.internet.MimeMessage> newDeviceNotices(Platform.Person person, String subject) {
        return Stack.get().mail().to(AccountMailTest.address(person)).stream()
                .filter(m -> AccountMailTest.subject(m).equals(subject)).toList();
    }

    /**
     * The account page's own forms in Chromium: the name shown, an avatar (shown on the page from the
     * API's address), a new sign-in address (the password
     * first; the new address is mailed a link, the old one told), and on the security page a new
     * password, after which the old password and the old refresh token are dead.
     */
    @Test
    void aPersonChangesTheirNameAddressAndPasswordOnTheAccountPages() throws Exception {
        Platform.Person person = Platform.signUp("self-service");
        String refresh = Platform.passwordToken(person, "user").getTokens().getRefreshToken().getValue();
        String newAddress = "moved-" + AccountMailTest.address(person);
        String newPassword = "a chromium chosen passphrase";
        WebDriver driver = BrowserTest.browser();
        try {
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(20));
            driver.get(Platform.api() + "/account");
            SecondFactorBrowserTest.signInWithPassword(driver, wait, person);
            var name = wait.until(ExpectedConditions.presenceOfElementLocated(By.id("display_name")));
            assertTrue(driver.findElements(By.id("show_email")).isEmpty(), "an unconfirmed address cannot be public");
            name.clear();
            name.sendKeys("Dr. Chromium");
            // The standard profile claims on the same form; the website is public, the rest private.
            driver.findElement(By.id("given_name")).sendKeys("Chromium");
            driver.findElement(By.id("website")).sendKeys("https://chromium.example/");
            driver.findElement(By.id("locale")).sendKeys("en-gb");
            driver.findElement(By.id("zoneinfo")).sendKeys("Europe/Paris");
            BrowserTest.submitAndAwaitNextPage(driver, wait, driver.findElement(By.id("save_profile")));
            wait.until(ExpectedConditions.attributeToBe(By.id("display_name"), "value", "Dr. Chromium"));
            assertEquals("en-GB", driver.findElement(By.id("locale")).getAttribute("value"));
            Platform.anonymous().get("/people/" + person.username()).then().statusCode(200)
                    .body("website", org.hamcrest.Matchers.equalTo("https://chromium.example/"))
                    .body("$", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasKey("given_name")));

            java.nio.file.Path picture = java.nio.file.Files.createTempFile("avatar", ".png");
            javax.imageio.ImageIO.write(new java.awt.image.BufferedImage(24, 24, java.awt.image.BufferedImage.TYPE_INT_RGB), "png",
                    picture.toFile());
            var upload = driver.findElement(By.id("upload_avatar"));
            driver.findElement(By.id("avatar_file")).sendKeys(picture.toString());
            BrowserTest.submitAndAwaitNextPage(driver, wait, upload);
            wait.until(d -> ((org.openqa.selenium.JavascriptExecutor) d).executeScript(
                    "var i = document.getElementById('avatar'); return i && i.complete && i.naturalWidth;") instanceof Number n
                    && n.intValue() == 24);
            org.junit.jupiter.api.Assertions.assertArrayEquals(java.nio.file.Files.readAllBytes(picture), Platform.anonymous()
                    .get("/people/" + person.username() + "/avatar").then().statusCode(200).extract().asByteArray());

            driver.findElement(By.id("new_email")).sendKeys(newAddress);
            driver.findElement(By.id("email_password")).sendKeys(person.password());
            BrowserTest.submitAndAwaitNextPage(driver, wait, driver.findElement(By.id("change_email")));
            String notice = wait.until(ExpectedConditions.presenceOfElementLocated(By.id("account_notice"))).getText();
            assertTrue(notice.contains(newAddress), notice);
            assertTrue(driver.findElement(By.id("email_state")).getText().contains("not confirmed yet"));

            driver.findElement(By.id("security_link")).click();
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("current_password"))).sendKeys(person.password());
            driver.findElement(By.id("new_password")).sendKeys(newPassword);
            driver.findElement(By.id("new_password_again")).sendKeys(newPassword);
            var change = driver.findElement(By.id("change_password"));
            BrowserTest.submitAndAwaitNextPage(driver, wait, change);
            String log = wait.until(ExpectedConditions.presenceOfElementLocated(By.id("account_events"))).getText();
            assertTrue(log.contains("password changed") && log.contains("sign-in address changed to " + newAddress), log);
        } finally {
            driver.quit();
        }
        String token = Platform.accessToken(new Platform.Person(person.id(), person.username(), newPassword), "user");
        as(token).get("/user").then().statusCode(200).body("display_name", org.hamcrest.Matchers.equalTo("Dr. Chromium"))
                .body("private_email", org.hamcrest.Matchers.equalTo(newAddress))
                .body("given_name", org.hamcrest.Matchers.equalTo("Chromium"))
                .body("zoneinfo", org.hamcrest.Matchers.equalTo("Europe/Paris"));
        Platform.anonymous().formParams(java.util.Map.of("grant_type", "refresh_token", "refresh_token", refresh))
                .post("/oauth/token").then().statusCode(400).body("error", org.hamcrest.Matchers.equalTo("invalid_grant"));
        Platform.anonymous().formParams(java.util.Map.of("grant_type", "password", "username", person.username(),
                "password", person.password())).post("/oauth/token").then().statusCode(400);
        // The new address gets its link and the password's notice; the old one is told of the new address.
        Awaitility.await().atMost(AccountMailTest.DELIVERY).until(() -> Stack.get().mail().to(newAddress).stream()
                .anyMatch(m -> AccountMailTest.subject(m).equals("Confirm your e-mail address")));
        Awaitility.await().atMost(AccountMailTest.DELIVERY).until(() -> Stack.get().mail().to(AccountMailTest.address(person))
                .stream().anyMatch(m -> AccountMailTest.subject(m).equals("Your account's sign-in address was changed")));
        Awaitility.await().atMost(AccountMailTest.DELIVERY).until(() -> Stack.get().mail().to(newAddress).stream()
                .anyMatch(m -> AccountMailTest.subject(m).startsWith("Your account's security changed: your password")));
    }
}
