package org.ziggurat.e2e;

import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.AuthorizationRequest;
import com.nimbusds.oauth2.sdk.AuthorizationResponse;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.e2e.Platform.as;

/**
 * The login and consent pages in a real browser: the OS's headless Chromium, driven through its
 * chromedriver. A small local server plays the client application: it receives the redirect
 * back, and serves a forged page from another origin.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BrowserTest {

    static final String CHROMIUM = Optional.ofNullable(System.getenv("ZIGGURAT_CHROMIUM")).orElse("/usr/bin/chromium");
    static final String CHROMEDRIVER = Optional.ofNullable(System.getenv("ZIGGURAT_CHROMEDRIVER")).orElse("/usr/bin/chromedriver");

    HttpServer client;
    BlockingQueue<URI> callbacks;
    String clientBase;
    OAuthJourneyTest.App app;
    Platform.Person ada;

    @BeforeAll
    void clientApplication() throws Exception {
        ClientApplication application = ClientApplication.start();
        client = application.server();
        clientBase = application.base();
        callbacks = application.callbacks();
        ada = Platform.signUp("ada");
        app = OAuthJourneyTest.application(Platform.accessToken(ada, "user", "admin"), clientBase + "/callback");
    }

    @AfterAll
    void stopClient() {
        client.stop(0);
    }

    static WebDriver browser() {
        return browser(null);
    }

    /** {@code downloads}: where files the pages send are saved, without asking (null: the browser's default). */
    static WebDriver browser(java.nio.file.Path downloads) {
        assertTrue(new File(CHROMIUM).canExecute(), "Chromium is missing at " + CHROMIUM + " (apt-get install chromium)");
        assertTrue(new File(CHROMEDRIVER).canExecute(), "chromedriver is missing at " + CHROMEDRIVER
                + " (apt-get install chromium-driver)");
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM)
                .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync");
        if (downloads != null) {
            options.setExperimentalOption("prefs", java.util.Map.of("download.default_directory", downloads.toString(),
                    "download.prompt_for_download", false));
        }
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER))
                .usingAnyFreePort().build();
        WebDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(20));
        return driver;
    }

    /**
     * Clicks a form's button and waits for the page the form's answer loads. The old document is marked
     * before the click and the wait ends when a complete document without the mark is there; while the
     * browser swaps documents, chromedriver may answer any question about the page with an error (a
     * stale element, or "Node with given id does not belong to the document", which a staleness wait
     * does not expect), so such answers mean "not yet", and only the new document ends the wait.
     */
    static void submitAndAwaitNextPage(WebDriver driver, WebDriverWait wait, WebElement button) {
        JavascriptExecutor js = (JavascriptExecutor) driver;
        js.executeScript("window.zigguratPreviousPage = true;");
        button.click();
        wait.until(d -> {
            try {
                return Boolean.TRUE.equals(js.executeScript(
                        "return document.readyState === 'complete' && window.zigguratPreviousPage !== true;"));
            } catch (org.openqa.selenium.WebDriverException swapping) {
                return false;
            }
        });
    }

    /**
     * At Ziggurat's login page, sent there by a relying party: signs the person in and approves the
     * consent page; the browser then goes back to the relying party.
     */
    static void signInAndApprove(WebDriver driver, Platform.Person person) {
        WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(20));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("login")));
        assertTrue(driver.getCurrentUrl().startsWith(Platform.api() + "/oauth/authorize?"), driver.getCurrentUrl());
        driver.findElement(By.id("login")).sendKeys(person.username());
        driver.findElement(By.id("password")).sendKeys(person.password());
        driver.findElement(By.id("sign_in")).click();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("approve"))).click();
    }

    /** A relying party's page that shows the claims it validated: the person's subject, issuer, username and email. */
    static void showsClaimsOf(WebDriver driver, Platform.Person person, java.util.function.Supplier<String> log) {
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(ExpectedConditions.presenceOfElementLocated(By.id("subject")));
        assertEquals(Long.toString(person.id()), driver.findElement(By.id("subject")).getText(), log);
        assertEquals(Platform.api(), driver.findElement(By.id("issuer")).getText());
        assertEquals(person.username(), driver.findElement(By.id("username")).getText());
        assertEquals(person.username() + "@example.org", driver.findElement(By.id("email")).getText());
    }

    record Started(URI uri, CodeVerifier verifier, State state) {
    }

    Started request() {
        CodeVerifier verifier = new CodeVerifier();
        State state = new State();
        URI uri = new AuthorizationRequest.Builder(new ResponseType(ResponseType.Value.CODE), app.id())
                .endpointURI(Platform.metadata().getAuthorizationEndpointURI()).redirectionURI(app.redirect())
                .scope(new Scope("user")).state(state).codeChallenge(verifier, CodeChallengeMethod.S256).build().toURI();
        return new Started(uri, verifier, state);
    }

    /** Each test signs in as someone new, who has not yet consented to the application. */
    Platform.Person signIn(WebDriver driver, String password) {
        Platform.Person visitor = Platform.signUp("visitor");
        driver.findElement(By.id("login")).sendKeys(visitor.username());
        driver.findElement(By.id("password")).sendKeys(password == null ? visitor.password() : password);
        driver.findElement(By.id("sign_in")).click();
        return visitor;
    }

    URI awaitCallback() throws InterruptedException {
        URI uri = callbacks.poll(15, TimeUnit.SECONDS);
        assertNotNull(uri, "the browser never came back to the application");
        return uri;
    }

    /**
     * The API reference (Swagger UI, served by the gateway) in a real browser: it shows every tag of
     * the document, and "Try it out" calls the API with the person's own token.
     */
    @Test
    void theApiReferenceShowsEveryTagAndTriesWithTheCallersToken() {
        Platform.Person reader = Platform.signUp("reader");
        String token = Platform.accessToken(reader, "user");
        List<String> tags = io.restassured.path.json.JsonPath.from(ContractCheck.document()).getList("tags.name");
        WebDriver driver = browser();
        try {
            driver.get(Platform.api() + "/docs");
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));
            // Swagger UI renders the tags one after another: the first one present is not all of them
            // (a larger document showed one of twelve when read at once).
            wait.until(d -> d.findElements(By.cssSelector("h3.opblock-tag")).size() >= tags.size());
            List<String> shown = driver.findElements(By.cssSelector("h3.opblock-tag")).stream()
                    .map(e -> e.getAttribute("data-tag")).toList();
            assertEquals(new java.util.TreeSet<>(tags), new java.util.TreeSet<>(shown), "the tags the reference shows");
            assertTrue(tags.size() >= 8, "tags: " + tags);
            // The token a person pastes under Authorize, as Swagger UI keeps it.
            ((org.openqa.selenium.JavascriptExecutor) driver).executeScript(
                    "window.ui.preauthorizeApiKey('tokenHeader', arguments[0]);", "token " + token);
            // The tags start collapsed (viewer.js): open People's.
            driver.findElement(By.cssSelector("h3.opblock-tag[data-tag='People']")).click();
            WebElement operation = wait.until(ExpectedConditions.presenceOfElementLocated(By.id("operations-People-getCurrentUser")));
            operation.findElement(By.cssSelector(".opblock-summary-control")).click();
            wait.until(ExpectedConditions.elementToBeClickable(operation.findElement(By.cssSelector(".try-out__btn")))).click();
            wait.until(ExpectedConditions.elementToBeClickable(operation.findElement(By.cssSelector(".execute")))).click();
            WebElement status = wait.until(d -> operation.findElement(By.cssSelector(".live-responses-table tbody .response-col_status")));
            assertEquals("200", status.getText().trim());
            assertTrue(operation.findElement(By.cssSelector(".live-responses-table tbody .response-col_description")).getText()
                    .contains(reader.username()), "the answer shows the caller");
        } finally {
            driver.quit();
        }
    }

    @Test
    void approveGivesACodeThatExchangesForAToken() throws Exception {
        approveUnder(null);
    }

    /**
     * The gateway's public URL names 127.0.0.1; reached as localhost, the pages' forms posted to the
     * public URL's host, which the page's own CSP (form-action 'self') blocked: the button did
     * nothing. The forms and redirects are paths now, and work under whatever host was used.
     */
    @Test
    void signingInWorksUnderTheOtherLoopbackName() throws Exception {
        approveUnder("localhost");
    }

    void approveUnder(String host) throws Exception {
        WebDriver driver = browser();
        try {
            Started started = request();
            URI start = host == null ? started.uri()
                    : URI.create(started.uri().toString().replace("://" + started.uri().getHost() + ":", "://" + host + ":"));
            driver.get(start.toString());
            assertEquals(host == null ? started.uri().getHost() : host, URI.create(driver.getCurrentUrl()).getHost());
            assertEquals("Sign in", driver.findElement(By.id("sign_in")).getText());
            signIn(driver, null);
            new WebDriverWait(driver, Duration.ofSeconds(10)).until(ExpectedConditions.elementToBeClickable(By.id("approve")));
            assertTrue(driver.getPageSource().contains("Field notebook"), "the consent page does not name the application");
            driver.findElement(By.id("approve")).click();
            AuthorizationResponse answer = AuthorizationResponse.parse(awaitCallback());
            assertTrue(answer.indicatesSuccess());
            assertEquals(started.state(), answer.getState());
            new WebDriverWait(driver, Duration.ofSeconds(10)).until(ExpectedConditions.presenceOfElementLocated(By.id("done")));
            AuthorizationCode code = answer.toSuccessResponse().getAuthorizationCode();
            TokenResponse tokens = OAuthJourneyTest.exchange(app, new AuthorizationCodeGrant(code, app.redirect(),
                    started.verifier()));
            assertTrue(tokens.indicatesSuccess());
            as(tokens.toSuccessResponse().getTokens().getAccessToken().getValue()).get("/user").then().statusCode(200);
        } finally {
            driver.quit();
        }
    }

    /**
     * A person who authorized the application before signs in there again (a new browser, no
     * session): no consent page, the browser lands on the application with a code. The sign-in
     * page's CSP once allowed its form to lead only here ({@code form-action 'self'}), and Chromium
     * holds every redirect after the form's POST to it: the last 303, to the client, was blocked
     * and the person stayed on the sign-in page with nothing said.
     */
    @Test
    void aReturningPersonSignsInAgainAndLandsOnTheApplication() throws Exception {
        Platform.Person returning = Platform.signUp("returning");
        WebDriver first = browser();
        try {
            openSignIn(first, request());
            first.findElement(By.id("login")).sendKeys(returning.username());
            first.findElement(By.id("password")).sendKeys(returning.password());
            first.findElement(By.id("sign_in")).click();
            new WebDriverWait(first, Duration.ofSeconds(20)).until(ExpectedConditions.elementToBeClickable(By.id("approve"))).click();
            assertTrue(AuthorizationResponse.parse(awaitCallback()).indicatesSuccess());
        } finally {
            first.quit();
        }
        WebDriver again = browser();
        try {
            Started started = request();
            openSignIn(again, started);
            again.findElement(By.id("login")).sendKeys(returning.username());
            again.findElement(By.id("password")).sendKeys(returning.password());
            again.findElement(By.id("sign_in")).click();
            URI back = callbacks.poll(20, TimeUnit.SECONDS);
            assertNotNull(back, () -> "the returning person stayed at " + again.getCurrentUrl() + ": " + again.getPageSource());
            AuthorizationResponse answer = AuthorizationResponse.parse(back);
            assertTrue(answer.indicatesSuccess());
            assertEquals(started.state(), answer.getState());
            new WebDriverWait(again, Duration.ofSeconds(20)).until(ExpectedConditions.presenceOfElementLocated(By.id("done")));
            TokenResponse tokens = OAuthJourneyTest.exchange(app, new AuthorizationCodeGrant(
                    answer.toSuccessResponse().getAuthorizationCode(), app.redirect(), started.verifier()));
            assertTrue(tokens.indicatesSuccess());
        } finally {
            again.quit();
        }
    }

    private static void openSignIn(WebDriver driver, Started started) {
        driver.get(started.uri().toString());
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(ExpectedConditions.presenceOfElementLocated(By.id("login")));
    }

    @Test
    void denyTellsTheApplicationAccessDenied() throws Exception {
        WebDriver driver = browser();
        try {
            Started started = request();
            driver.get(started.uri().toString());
            signIn(driver, null);
            new WebDriverWait(driver, Duration.ofSeconds(10)).until(ExpectedConditions.elementToBeClickable(By.id("deny")));
            driver.findElement(By.id("deny")).click();
            AuthorizationResponse answer = AuthorizationResponse.parse(awaitCallback());
            assertEquals("access_denied", answer.toErrorResponse().getErrorObject().getCode());
            assertEquals(started.state(), answer.getState());
        } finally {
            driver.quit();
        }
    }

    @Test
    void aWrongPasswordShowsAnErrorAndStartsNoSession() throws Exception {
        WebDriver driver = browser();
        try {
            driver.get(request().uri().toString());
            signIn(driver, "not the password");
            new WebDriverWait(driver, Duration.ofSeconds(10)).until(ExpectedConditions.presenceOfElementLocated(By.id("sign_in")));
            assertTrue(driver.getPageSource().contains("The username or password is not right."), driver.getPageSource());
            Cookie session = driver.manage().getCookieNamed("ziggurat_session");
            assertNull(session, "a failed sign-in left a session cookie");
            assertTrue(callbacks.isEmpty());
        } finally {
            driver.quit();
        }
    }

    @Test
    void aForgedConsentFromAnotherSiteIsRefused() throws Exception {
        WebDriver driver = browser();
        try {
            // A real session first, so that only the missing CSRF token can stop the forgery.
            Started started = request();
            driver.get(started.uri().toString());
            signIn(driver, null);
            new WebDriverWait(driver, Duration.ofSeconds(10)).until(ExpectedConditions.elementToBeClickable(By.id("approve")));
            Cookie session = driver.manage().getCookieNamed("ziggurat_session");
            assertNotNull(session);
            assertTrue(session.isHttpOnly(), "the session cookie is readable from scripts");
            assertEquals("Lax", session.getSameSite());

            // Another origin serves a page that posts an approval with the right parameters but no CSRF token.
            StringBuilder fields = new StringBuilder();
            for (var p : com.nimbusds.oauth2.sdk.util.URLUtils.parseParameters(started.uri().getRawQuery()).entrySet()) {
                fields.append("<input type=\"hidden\" name=\"").append(p.getKey()).append("\" value=\"")
                        .append(p.getValue().get(0)).append("\">");
            }
            String forged = "<html><body><form id=\"f\" method=\"post\" action=\"" + Platform.api() + "/oauth/authorize\">"
                    + fields + "<input type=\"hidden\" name=\"action\" value=\"approve\"></form>"
                    + "<script>document.getElementById('f').submit()</script></body></html>";
            client.createContext("/forged", exchange -> {
                byte[] body = forged.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            driver.get(clientBase + "/forged");
            new WebDriverWait(driver, Duration.ofSeconds(10)).until(d -> d.getCurrentUrl().contains("/oauth/authorize"));
            assertNull(callbacks.poll(2, TimeUnit.SECONDS), "the forged approval reached the application");
            String page = driver.getPageSource();
            assertTrue(page.contains("Sign in") || page.contains("not sent by this site"), page);
        } finally {
            driver.quit();
        }
    }
}
