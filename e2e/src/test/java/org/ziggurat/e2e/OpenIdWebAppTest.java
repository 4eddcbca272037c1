package org.ziggurat.e2e;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.e2e.Platform.as;

/**
 * A tool that signs its users in with Ziggurat, written by nobody here: a Quarkus application
 * using quarkus-oidc in web-app mode (module e2e-relying-party), configured with the issuer, a
 * client id and secret only, driven in Chromium through the gateway. The library finds the
 * endpoints by discovery, sends PKCE and a nonce, validates the ID token against the JWKS, reads
 * userinfo, and signs out with RP-initiated logout.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenIdWebAppTest {

    Process tool;
    String toolBase;
    Path log;
    String clientId;
    String clientSecret;
    RelyingPartyApp relyingParty;

    @BeforeAll
    void startTheTool() throws Exception {
        Platform.Person developer = Platform.signUp("tool-developer");
        int port = Stack.freePort();
        toolBase = "http://127.0.0.1:" + port;
        Map<String, Object> app = as(Platform.accessToken(developer, "admin")).contentType("application/json")
                .body(Map.of("name", "Notebook", "redirect_uris", List.of(toolBase + "/notebook"),
                        "post_logout_redirect_uris", List.of(toolBase + "/signed-out"), "scopes", "openid profile email"))
                .post("/applications").then().statusCode(201).extract().jsonPath().getMap("");
        clientId = (String) app.get("client_id");
        clientSecret = (String) app.get("client_secret");
        relyingParty = RelyingPartyApp.start("relying-party", port, clientId, clientSecret, Map.of());
        tool = relyingParty.process();
        log = relyingParty.log();
    }

    @AfterAll
    void stopTheTool() throws InterruptedException {
        if (tool != null) {
            tool.destroy();
            tool.waitFor();
        }
    }

    @Test
    void aQuarkusWebAppSignsAPersonInAndOut() throws Exception {
        Platform.Person ada = Platform.signUp("notebook-user");
        WebDriver driver = BrowserTest.browser();
        try {
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(20));
            driver.get(toolBase + "/notebook");
            // Sent to Ziggurat's login page by the library, then the consent page.
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("login")));
            assertTrue(driver.getCurrentUrl().startsWith(Platform.api() + "/oauth/authorize?"), driver.getCurrentUrl());
            assertTrue(driver.getCurrentUrl().contains("nonce=") && driver.getCurrentUrl().contains("code_challenge="),
                    "the library sends a nonce and PKCE: " + driver.getCurrentUrl());
            BrowserTest.signInAndApprove(driver, ada);

            // Back at the tool, signed in: the ID token's subject and issuer, userinfo's claims.
            BrowserTest.showsClaimsOf(driver, ada, this::logTail);

            // Signing out of the tool signs out of Ziggurat too (RP-initiated logout with the ID
            // token as hint), and comes back to the tool's registered page.
            driver.get(toolBase + "/logout");
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("signed_out")));
            assertTrue(driver.getCurrentUrl().startsWith(toolBase + "/signed-out"), driver.getCurrentUrl());
            driver.get(toolBase + "/notebook");
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("login")));
            assertTrue(driver.getCurrentUrl().startsWith(Platform.api() + "/oauth/authorize?"),
                    "after signing out, the tool's page asks to sign in at Ziggurat again: " + driver.getCurrentUrl());
        } finally {
            driver.quit();
        }
    }

    /**
     * The authorization response replayed (the same code and state, as from a browser's history
     * or a leaked log): the library signs no one in with it (no state cookie: it starts a new
     * sign-in at Ziggurat), and the code is spent at Ziggurat anyway.
     */
    @Test
    void aReplayedAuthorizationResponseIsRefused() throws Exception {
        Platform.Person ada = Platform.signUp("notebook-replay");
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager())
                .followRedirects(HttpClient.Redirect.NEVER).build();
        HttpResponse<String> toZiggurat = browser.send(HttpRequest.newBuilder(URI.create(toolBase + "/notebook")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(302, toZiggurat.statusCode(), toZiggurat.body());
        URI callback = new OAuthJourneyTest.BrowserlessUser(ada).authorize(URI.create(
                toZiggurat.headers().firstValue("Location").orElseThrow()));
        assertTrue(callback.toString().startsWith(toolBase + "/notebook?"), callback.toString());
        HttpResponse<String> first = browser.send(HttpRequest.newBuilder(callback).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(302, first.statusCode(), "the first answer signs in (and drops code and state from the address)");
        assertTrue(first.headers().allValues("Set-Cookie").stream().anyMatch(c -> c.startsWith("q_session")), first.headers().toString());

        HttpResponse<String> replayed = HttpClient.newBuilder().cookieHandler(new CookieManager())
                .followRedirects(HttpClient.Redirect.NEVER).build()
                .send(HttpRequest.newBuilder(callback).build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(replayed.headers().allValues("Set-Cookie").stream().noneMatch(c -> c.startsWith("q_session")),
                "a replayed response signed someone in: " + replayed.headers());
        assertTrue(replayed.statusCode() == 401 || replayed.headers().firstValue("Location").orElse("")
                .startsWith(Platform.api() + "/oauth/authorize?"), replayed.statusCode() + " " + replayed.headers());
        String code = java.net.URLDecoder.decode(callback.getRawQuery().replaceAll(".*(^|&)code=([^&]*).*", "$2"),
                java.nio.charset.StandardCharsets.UTF_8);
        Platform.anonymous().auth().preemptive().basic(clientId, clientSecret).contentType("application/x-www-form-urlencoded")
                .accept("application/json").formParam("grant_type", "authorization_code").formParam("code", code)
                .formParam("redirect_uri", toolBase + "/notebook").post("/oauth/token").then().statusCode(400)
                .body("error", org.hamcrest.Matchers.equalTo("invalid_grant"));
    }

    private String logTail() {
        return Stack.tail(log, 40);
    }
}
