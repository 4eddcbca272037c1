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
    void signingOutEverywhereElseEndsTheOtherBrowsersSignIn() {
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
            driver.findElement(By.id("end_other_sessions")).click();
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("this_session")));
            assertTrue(driver.findElements(By.id("end_other_sessions")).isEmpty(), "no other sign-in is left");
        } finally {
            driver.quit();
        }
        org.junit.jupiter.api.Assertions.assertFalse(other.stillSignedIn(), "the other browser is signed out");
    }
}
