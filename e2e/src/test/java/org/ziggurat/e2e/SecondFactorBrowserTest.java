package org.ziggurat.e2e;

import com.nimbusds.jwt.JWTParser;
import org.apache.commons.codec.binary.Base32;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.e2e.Platform.as;

/**
 * A person secures their account in Chromium, against the whole platform: sets up an authenticator
 * app on the account page (reading the key from the page and computing its codes here), signs in
 * to an application with password and code (a replayed code refused), signs in with a recovery
 * code, and turns it off again with the password ("sudo mode"). /user and the password grant
 * follow each step.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SecondFactorBrowserTest {

    ClientApplication client;
    BlockingQueue<URI> callbacks;
    String clientBase;

    @BeforeAll
    void clientApplication() throws Exception {
        client = ClientApplication.start();
        clientBase = client.base();
        callbacks = client.callbacks();
    }

    @AfterAll
    void stopClient() {
        client.stop();
    }

    /** Each test hears only its own callbacks: one a failed test left behind is no answer to the next. */
    @org.junit.jupiter.api.BeforeEach
    void noCallbackLeftOver() {
        callbacks.clear();
    }

    static String code(byte[] key, long step) throws Exception {
        return AccountSecurityForms.code(key, step);
    }

    static long step() {
        return AccountSecurityForms.step();
    }

    static void passwordGrant(Platform.Person person, int status) {
        Platform.anonymous().contentType("application/x-www-form-urlencoded")
                .formParams(Map.of("grant_type", "password", "username", person.username(), "password", person.password(),
                        "scope", "user"))
                .post("/oauth/token").then().statusCode(status);
    }

    static void signInWithPassword(WebDriver driver, WebDriverWait wait, Platform.Person person) {
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("login"))).sendKeys(person.username());
        driver.findElement(By.id("password")).sendKeys(person.password());
        driver.findElement(By.id("sign_in")).click();
    }

    static void enterCode(WebDriver driver, WebDriverWait wait, String code) {
        WebElement field = wait.until(ExpectedConditions.presenceOfElementLocated(By.id("code")));
        field.clear();
        field.sendKeys(code);
        driver.findElement(By.id("verify_code")).click();
    }

    @Test
    void aPersonSecuresTheirAccountSignsInWithItAndTurnsItOff() throws Exception {
        Platform.Person person = Platform.signUp("secured");
        String token = Platform.accessToken(person, "user", "admin");
        as(token).get("/user").then().statusCode(200).body("two_factor_authentication", is(false));
        String owner = Platform.accessToken(Platform.signUp("owner"), "user", "admin");
        Map<String, Object> app = as(owner).contentType("application/json")
                .body(Map.of("name", "Lab notebook", "redirect_uris", List.of(clientBase + "/callback"),
                        "scopes", "openid user"))
                .post("/applications").then().statusCode(201).extract().jsonPath().getMap("");

        WebDriver driver = BrowserTest.browser();
        try {
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(20));
            wait.withMessage(() -> "the page at " + driver.getCurrentUrl() + ": " + driver.getPageSource());
            // Signed in elsewhere with the password alone (another browser).
            AccountSecurityForms elsewhere = AccountSecurityForms.signedIn(person);
            assertTrue(elsewhere.stillSignedIn());
            // The account page: sign in, set up the authenticator app from the page's key.
            driver.get(Platform.api() + "/account/security");
            signInWithPassword(driver, wait, person);
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("start_totp"))).click();
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("totp_qr")));
            byte[] key = new Base32().decode(driver.findElement(By.id("totp_key")).getText().replace(" ", ""));
            assertEquals(20, key.length, "a 160-bit key");
            long enrolled = step();
            driver.findElement(By.id("totp_code")).sendKeys(code(key, enrolled));
            driver.findElement(By.id("confirm_totp")).click();
            List<String> recovery = wait.until(ExpectedConditions.presenceOfElementLocated(By.id("recovery_codes")))
                    .findElements(By.tagName("code")).stream().map(WebElement::getText).toList();
            assertEquals(10, recovery.size(), "ten recovery codes, shown once");
            driver.findElement(By.id("done")).click();
            assertTrue(wait.until(ExpectedConditions.presenceOfElementLocated(By.id("two_factor_state"))).getText().startsWith("On"));
            assertEquals("Recovery codes left: 10", driver.findElement(By.id("recovery_codes_left")).getText());
            // The second factor came: the sign-in elsewhere that did not use one ended, and the password alone
            // no longer gets a token.
            assertFalse(elsewhere.stillSignedIn(), "the single-factor session elsewhere ended");
            passwordGrant(person, 400);
            // An application that asks for the second factor (acr_values): this session was signed in
            // by the password alone, but now the person has one, so they sign in again with it.
            driver.get(Platform.api() + "/oauth/authorize?response_type=code&client_id=" + app.get("client_id")
                    + "&redirect_uri=" + clientBase + "/callback&scope=openid%20user&acr_values=https://refeds.org/profile/mfa");
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("login")));

            // An application: the password, then the code. The enrolment's code again is a replay.
            driver.manage().deleteAllCookies();
            String verifier = "v".repeat(20) + java.util.UUID.randomUUID();
            String challenge = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                    java.security.MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII)));
            driver.get(Platform.api() + "/oauth/authorize?response_type=code&client_id=" + app.get("client_id")
                    + "&redirect_uri=" + clientBase + "/callback&scope=openid%20user&nonce=n-2fa&state=s-2fa"
                    + "&code_challenge=" + challenge + "&code_challenge_method=S256");
            signInWithPassword(driver, wait, person);
            enterCode(driver, wait, code(key, enrolled));
            assertTrue(wait.until(ExpectedConditions.presenceOfElementLocated(By.id("second_factor_error"))).getText()
                    .contains("used already"));
            enterCode(driver, wait, code(key, enrolled + 1));
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("approve"))).click();
            URI back = callbacks.poll(15, TimeUnit.SECONDS);
            assertNotNull(back, "the browser came back to the application");
            String authorizationCode = java.net.URLDecoder.decode(back.getQuery().replaceAll(".*code=([^&]+).*", "$1"),
                    StandardCharsets.UTF_8);
            String idToken = given().baseUri(Platform.api()).auth().preemptive()
                    .basic((String) app.get("client_id"), (String) app.get("client_secret"))
                    .contentType("application/x-www-form-urlencoded")
                    .formParams(Map.of("grant_type", "authorization_code", "code", authorizationCode,
                            "redirect_uri", clientBase + "/callback", "code_verifier", verifier))
                    .post("/oauth/token").then().statusCode(200).extract().path("id_token");
            var claims = JWTParser.parse(idToken).getJWTClaimsSet();
            assertEquals(List.of("pwd", "otp", "mfa"), claims.getStringListClaim("amr"));
            assertEquals("https://refeds.org/profile/mfa", claims.getStringClaim("acr"));

            // Lost the phone: a recovery code, once, and the page says how many are left.
            driver.manage().deleteAllCookies();
            driver.get(Platform.api() + "/account/security");
            signInWithPassword(driver, wait, person);
            enterCode(driver, wait, recovery.get(0));
            assertEquals("You have 9 recovery codes left.",
                    wait.until(ExpectedConditions.presenceOfElementLocated(By.id("recovery_codes_left"))).getText());
            driver.findElement(By.id("continue")).click();
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("account_events")));
            assertTrue(driver.findElement(By.id("account_events")).getText().contains("a recovery code used to sign in"));

            // Turning it off asks for the password again: a wrong one changes nothing.
            driver.findElement(By.id("remove_password")).sendKeys("not the password");
            driver.findElement(By.id("remove_totp")).click();
            assertTrue(wait.until(ExpectedConditions.presenceOfElementLocated(By.id("security_error"))).getText()
                    .contains("not right"));
            assertTrue(driver.findElement(By.id("two_factor_state")).getText().startsWith("On"));
            driver.findElement(By.id("remove_password")).sendKeys(person.password());
            driver.findElement(By.id("remove_totp")).click();
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("start_totp")));
            assertTrue(driver.findElement(By.id("two_factor_state")).getText().startsWith("Off"));
            assertTrue(driver.findElement(By.id("account_events")).getText().contains("authenticator app removed"));
        } finally {
            driver.quit();
        }
        passwordGrant(person, 200);
        as(Platform.accessToken(person, "user")).get("/user").then().body("two_factor_authentication", is(false));
    }

    /**
     * A passkey, made and used by Chromium's virtual authenticator (the W3C WebAuthn WebDriver
     * extension, which chromedriver implements): added on the account page, it signs the person in
     * to an application without the password, is the second factor after it, and confirms its own
     * removal in place of the password. The pages are reached as localhost, the relying party (Stack).
     */
    @Test
    void aPasskeySignsInWithoutThePasswordAndIsASecondFactorAfterIt() throws Exception {
        Platform.Person person = Platform.signUp("passkey");
        passwordGrant(person, 200);
        String owner = Platform.accessToken(Platform.signUp("owner"), "user", "admin");
        Map<String, Object> app = as(owner).contentType("application/json")
                .body(Map.of("name", "Sample tracker", "redirect_uris", List.of(clientBase + "/callback"), "scopes", "openid user"))
                .post("/applications").then().statusCode(201).extract().jsonPath().getMap("");
        String pages = Platform.api().replace("127.0.0.1", "localhost");
        WebDriver driver = BrowserTest.browser();
        try {
            var authenticator = ((org.openqa.selenium.virtualauthenticator.HasVirtualAuthenticator) driver).addVirtualAuthenticator(
                    new org.openqa.selenium.virtualauthenticator.VirtualAuthenticatorOptions()
                            .setProtocol(org.openqa.selenium.virtualauthenticator.VirtualAuthenticatorOptions.Protocol.CTAP2)
                            .setTransport(org.openqa.selenium.virtualauthenticator.VirtualAuthenticatorOptions.Transport.INTERNAL)
                            .setHasResidentKey(true).setHasUserVerification(true).setIsUserVerified(true)
                            .setIsUserConsenting(true));
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(20));
            wait.withMessage(() -> "the page at " + driver.getCurrentUrl() + ": " + driver.getPageSource());
            driver.get(pages + "/account/security");
            signInWithPassword(driver, wait, person);
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("passkey_name"))).sendKeys("Lab laptop");
            driver.findElement(By.id("add_passkey")).click();
            assertEquals(10, wait.until(ExpectedConditions.presenceOfElementLocated(By.id("recovery_codes")))
                    .findElements(By.tagName("code")).size(), "the first factor comes with recovery codes");
            assertEquals(1, authenticator.getCredentials().size(), "the authenticator holds the passkey");
            assertTrue(authenticator.getCredentials().get(0).isResidentCredential(), "a discoverable credential");
            driver.findElement(By.id("done")).click();
            assertTrue(wait.until(ExpectedConditions.presenceOfElementLocated(By.id("passkeys"))).getText().contains("Lab laptop"));
            passwordGrant(person, 400);

            // Without the password: "Sign in with a passkey" on the application's sign-in page.
            driver.manage().deleteAllCookies();
            driver.get(pages + "/oauth/authorize?response_type=code&client_id=" + app.get("client_id") + "&redirect_uri="
                    + clientBase + "/callback&scope=openid%20user&nonce=n-passkey&state=s-passkey");
            wait.until(ExpectedConditions.elementToBeClickable(By.id("passkey_sign_in"))).click();
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("approve"))).click();
            URI back = callbacks.poll(15, TimeUnit.SECONDS);
            assertNotNull(back, "the browser came back to the application");
            String code = java.net.URLDecoder.decode(back.getQuery().replaceAll(".*code=([^&]+).*", "$1"), StandardCharsets.UTF_8);
            String idToken = given().baseUri(Platform.api()).auth().preemptive()
                    .basic((String) app.get("client_id"), (String) app.get("client_secret"))
                    .contentType("application/x-www-form-urlencoded")
                    .formParams(Map.of("grant_type", "authorization_code", "code", code, "redirect_uri", clientBase + "/callback"))
                    .post("/oauth/token").then().statusCode(200).extract().path("id_token");
            var claims = JWTParser.parse(idToken).getJWTClaimsSet();
            assertEquals(List.of("hwk", "mfa"), claims.getStringListClaim("amr"), "a device-bound passkey, verified");
            assertEquals("https://refeds.org/profile/mfa", claims.getStringClaim("acr"));

            // Returning, consented already: the passkey lands the browser on the application at once
            // (the sign-in page's form may lead to the client: Chromium holds its CSP to the redirects).
            // Signed out first: cookies go per site, so from one of the pages'.
            driver.get(pages + "/account/security");
            driver.manage().deleteAllCookies();
            driver.get(pages + "/oauth/authorize?response_type=code&client_id=" + app.get("client_id") + "&redirect_uri="
                    + clientBase + "/callback&scope=openid%20user&nonce=n-passkey-2&state=s-passkey-2");
            wait.until(ExpectedConditions.elementToBeClickable(By.id("passkey_sign_in"))).click();
            URI returned = callbacks.poll(20, TimeUnit.SECONDS);
            assertNotNull(returned, () -> "the returning person stayed at " + driver.getCurrentUrl());
            assertTrue(returned.getQuery().contains("state=s-passkey-2") && returned.getQuery().contains("code="), returned.toString());

            // And with the password, the passkey as the second factor: the second factor's page too.
            driver.get(pages + "/account/security");
            driver.manage().deleteAllCookies();
            driver.get(pages + "/oauth/authorize?response_type=code&client_id=" + app.get("client_id") + "&redirect_uri="
                    + clientBase + "/callback&scope=openid%20user&nonce=n-passkey-3&state=s-passkey-3");
            signInWithPassword(driver, wait, person);
            wait.until(ExpectedConditions.elementToBeClickable(By.id("passkey_second_factor"))).click();
            URI secondFactorReturned = callbacks.poll(20, TimeUnit.SECONDS);
            assertNotNull(secondFactorReturned, () -> "after the second factor, the browser stayed at " + driver.getCurrentUrl());
            assertTrue(secondFactorReturned.getQuery().contains("state=s-passkey-3"), secondFactorReturned.toString());

            // With the password: the passkey is the second factor. (Cookies go per site: those of the pages'.)
            driver.get(pages + "/account/security");
            driver.manage().deleteAllCookies();
            driver.get(pages + "/account/security");
            signInWithPassword(driver, wait, person);
            wait.until(ExpectedConditions.elementToBeClickable(By.id("passkey_second_factor"))).click();
            WebElement listed = wait.until(ExpectedConditions.presenceOfElementLocated(By.id("passkeys")));
            assertTrue(listed.getText().contains("last used"), listed.getText());
            assertTrue(driver.findElement(By.id("account_events")).getText().contains("passkey added"));

            // Removing it asks who one is again: the passkey itself will do (with user verification).
            BrowserTest.submitAndAwaitNextPage(driver, wait, driver.findElement(By.cssSelector("#passkeys button[id$=_with_passkey]")));
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("add_passkey")));
            assertTrue(driver.findElements(By.id("passkeys")).isEmpty(), "no passkey left");
            assertTrue(driver.findElement(By.id("two_factor_state")).getText().startsWith("Off"));
        } finally {
            driver.quit();
        }
        as(Platform.accessToken(person, "user")).get("/user").then().body("two_factor_authentication", is(false));
    }

    /** The pages' forms only change state by POST with the session's CSRF token; a GET shows. */
    @Test
    void theAccountPageIsAPageOfThePlatformAndItsFormsAreItsOwn() {
        Platform.anonymous().get("/account/security").then().statusCode(200)
                .header("Content-Security-Policy", containsString("default-src 'none'"))
                .header("X-Frame-Options", equalTo("DENY"))
                .body(containsString("id=\"sign_in\""));
        Platform.anonymous().contentType("application/x-www-form-urlencoded").formParams(Map.of("action", "totp_start"))
                .post("/account/security").then().statusCode(401).body(containsString("Your session ended"));
    }
}
