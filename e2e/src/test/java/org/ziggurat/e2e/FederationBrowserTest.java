package org.ziggurat.e2e;

import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.e2e.Platform.as;

/**
 * Signing in with an institution, with a provider nobody here wrote: Keycloak 26.4
 * ({@link KeycloakServer}) as the institution's OpenID Connect provider, in Chromium. A
 * researcher signs in at Keycloak, comes back, makes an account, and an application gets an ID
 * token with the entitlement and ORCID claims; the same kind of identity joins a password account
 * only after its owner signs in to it; another realm answering in the institution's place is
 * refused (mix-up); a changed state, or the answer of another browser's attempt, is refused.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FederationBrowserTest {

    private static final String SCOPES = "openid profile email entitlements orcid eduperson_assurance voperson_id admin";

    KeycloakServer keycloak;
    ClientApplication client;
    OAuthJourneyTest.App app;

    @BeforeAll
    void start() throws Exception {
        keycloak = KeycloakServer.get();
        client = ClientApplication.start();
        Platform.Person owner = Platform.signUp("fedowner");
        Map<String, Object> created = as(Platform.accessToken(owner, "user", "admin")).contentType("application/json")
                .body(Map.of("name", "Research portal", "redirect_uris", List.of(client.base() + "/callback"), "scopes", SCOPES))
                .post("/applications").then().statusCode(201).extract().jsonPath().getMap("");
        app = new OAuthJourneyTest.App(new ClientID((String) created.get("client_id")),
                new Secret((String) created.get("client_secret")), URI.create(client.base() + "/callback"));
    }

    @AfterAll
    void stop() {
        client.server().stop(0);
    }

    private String authorizeUrl(String state, String nonce) {
        return Platform.api() + "/oauth/authorize?response_type=code&client_id=" + app.id().getValue() + "&redirect_uri="
                + enc(app.redirect().toString()) + "&scope=" + enc(SCOPES) + "&state=" + state + "&nonce=" + nonce;
    }

    /** At Keycloak's sign-in page: the person signs in there. */
    private static void atKeycloak(WebDriver driver, String username, String password) {
        WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("kc-login")));
        driver.findElement(By.id("username")).sendKeys(username);
        driver.findElement(By.id("password")).sendKeys(password);
        driver.findElement(By.id("kc-login")).click();
    }

    private OIDCTokenResponse exchange(URI callback, String state) throws Exception {
        Map<String, String> answer = query(callback);
        assertEquals(state, answer.get("state"));
        var request = new com.nimbusds.oauth2.sdk.TokenRequest(Platform.metadata().getTokenEndpointURI(),
                new com.nimbusds.oauth2.sdk.auth.ClientSecretBasic(app.id(), app.secret()),
                new AuthorizationCodeGrant(new AuthorizationCode(answer.get("code")), app.redirect())).toHTTPRequest();
        request.setAccept("application/json");
        var tokens = com.nimbusds.openid.connect.sdk.OIDCTokenResponseParser.parse(request.send());
        assertTrue(tokens.indicatesSuccess(), () -> tokens.toErrorResponse().getErrorObject().toString());
        return (OIDCTokenResponse) tokens.toSuccessResponse();
    }

    @Test
    void aResearcherSignsInAtTheirInstitutionMakesAnAccountAndTheApplicationGetsResearchClaims() throws Exception {
        WebDriver driver = BrowserTest.browser();
        try {
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));
            driver.get(authorizeUrl("fed-state-1", "fed-nonce-1"));
            wait.until(ExpectedConditions.elementToBeClickable(By.id("provider_keycloak"))).click();
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("kc-login")));
            assertTrue(driver.getCurrentUrl().startsWith(keycloak.issuer(KeycloakServer.REALM)), driver.getCurrentUrl());
            atKeycloak(driver, "ada", "ada at the institution");

            // Back here (the page that posts the answer ran its script): nobody has this identity yet.
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("create_account")));
            assertEquals("ada@uni.example", driver.findElement(By.id("upstream_name")).getText());
            assertEquals("ada", driver.findElement(By.id("username")).getAttribute("value"), "proposed from Keycloak's username");
            String username = Platform.uniqueName("ada");
            driver.findElement(By.id("username")).clear();
            driver.findElement(By.id("username")).sendKeys(username);
            driver.findElement(By.id("create_account")).click();
            wait.until(ExpectedConditions.elementToBeClickable(By.id("approve"))).click();
            URI callback = client.callbacks().poll(30, TimeUnit.SECONDS);
            assertNotNull(callback, "the application got its code");

            OIDCTokenResponse tokens = exchange(callback, "fed-state-1");
            JWTClaimsSet id = SignedJWT.parse(tokens.getOIDCTokens().getIDTokenString()).getJWTClaimsSet();
            String person = id.getSubject();
            assertEquals("fed-nonce-1", id.getStringClaim("nonce"));
            assertEquals("https://orcid.org/" + KeycloakServer.ORCID, id.getStringClaim("orcid"), "Keycloak's orcid claim, kept");
            assertTrue(id.getStringListClaim("eduperson_assurance").contains(KeycloakServer.ASSURANCE), id.toString());
            assertEquals(person + "@ziggurat.test", id.getStringClaim("voperson_id"));
            String access = tokens.getOIDCTokens().getAccessToken().getValue();
            as(access).get("/user").then().statusCode(200)
                    .body("username", org.hamcrest.Matchers.equalTo(username));

            // A membership, and the next ID token carries it as an entitlement.
            String org = Platform.uniqueName("lab");
            as(access).contentType("application/json").body(Map.of("name", org, "display_name", "Lab", "visibility", "public"))
                    .post("/organizations").then().statusCode(201);
            driver.get(authorizeUrl("fed-state-2", "fed-nonce-2"));
            URI again = client.callbacks().poll(30, TimeUnit.SECONDS);
            assertNotNull(again, "signed in and consented already: straight back");
            JWTClaimsSet second = SignedJWT.parse(exchange(again, "fed-state-2").getOIDCTokens().getIDTokenString())
                    .getJWTClaimsSet();
            assertEquals(List.of("urn:geant:ziggurat.test:platform:group:" + org + "#ziggurat.test",
                    "urn:geant:ziggurat.test:platform:group:" + org + ":role=admin#ziggurat.test"),
                    second.getStringListClaim("eduperson_entitlement"));

            // Returning in a new browser session: the institution again, and straight back to the
            // application with a code (the pages on the way let their forms lead to the client).
            driver.manage().deleteAllCookies();
            driver.get(authorizeUrl("fed-state-3", "fed-nonce-3"));
            wait.until(ExpectedConditions.elementToBeClickable(By.id("provider_keycloak"))).click();
            wait.until(d -> !d.findElements(By.id("kc-login")).isEmpty() || !client.callbacks().isEmpty());
            if (!driver.findElements(By.id("kc-login")).isEmpty()) {
                atKeycloak(driver, "ada", "ada at the institution");
            }
            URI returned = client.callbacks().poll(30, TimeUnit.SECONDS);
            assertNotNull(returned, () -> "the returning researcher stayed at " + driver.getCurrentUrl());
            exchange(returned, "fed-state-3");

            // The account page lists the institution's identity.
            driver.get(Platform.api() + "/account");
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("linked_identities")));
            assertTrue(driver.findElement(By.id("linked_identities")).getText().contains("your institution: ada@uni.example"),
                    driver.findElement(By.id("linked_identities")).getText());
        } finally {
            driver.quit();
        }
    }

    @Test
    void anInstitutionIdentityJoinsAPasswordAccountOnlyAfterItsOwnerSignsIn() throws Exception {
        Platform.Person grace = Platform.signUp("grace");
        // Keycloak vouches for grace's own address, verified: that alone joins nothing.
        String keycloakName = Platform.uniqueName("grace-kc");
        keycloak.addUser(new KeycloakServer.User(keycloakName, "Grace", "Hopper", grace.username() + "@example.org",
                "grace at the institution"));
        WebDriver driver = BrowserTest.browser();
        try {
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));
            driver.get(Platform.api() + "/account");
            wait.until(ExpectedConditions.elementToBeClickable(By.id("provider_keycloak"))).click();
            atKeycloak(driver, keycloakName, "grace at the institution");
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("sign_in")));
            assertTrue(driver.findElements(By.id("link_identity")).isEmpty(), "nobody is signed in: nothing to link to");
            driver.findElement(By.id("login")).sendKeys(grace.username());
            driver.findElement(By.id("password")).sendKeys(grace.password());
            driver.findElement(By.id("sign_in")).click();
            wait.until(ExpectedConditions.elementToBeClickable(By.id("link_identity")));
            assertEquals(grace.username(), driver.findElement(By.id("signed_in_as")).getText());
            BrowserTest.submitAndAwaitNextPage(driver, wait, driver.findElement(By.id("link_identity")));
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("linked_identities")));
            assertTrue(driver.findElement(By.id("linked_identities")).getText().contains("your institution"));
        } finally {
            driver.quit();
        }
        // Another browser: Keycloak alone now signs grace in.
        WebDriver later = BrowserTest.browser();
        try {
            WebDriverWait wait = new WebDriverWait(later, Duration.ofSeconds(30));
            later.get(Platform.api() + "/account");
            wait.until(ExpectedConditions.elementToBeClickable(By.id("provider_keycloak"))).click();
            atKeycloak(later, keycloakName, "grace at the institution");
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("linked_identities")));
            assertEquals(grace.username(), later.findElement(By.id("username")).getText());
        } finally {
            later.quit();
        }
    }

    @Test
    void anotherRealmAnsweringInTheInstitutionsPlaceIsRefused() {
        WebDriver driver = BrowserTest.browser();
        try {
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));
            driver.get(Platform.api() + "/account");
            wait.until(ExpectedConditions.elementToBeClickable(By.id("provider_keycloak"))).click();
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("kc-login")));
            String atResearch = driver.getCurrentUrl();
            assertTrue(atResearch.contains("/realms/research/protocol/openid-connect/auth?"), atResearch);
            // The same request (client, redirect, state, nonce, PKCE) at the other realm, another issuer.
            driver.get(atResearch.replace("/realms/research/", "/realms/" + KeycloakServer.OTHER_REALM + "/"));
            atKeycloak(driver, "mallory", "mallory at the other realm");
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("federation_error")));
            assertTrue(driver.findElement(By.id("federation_error")).getText().contains("could not be verified"),
                    driver.getPageSource());
            driver.get(Platform.api() + "/account");
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("sign_in")));
        } finally {
            driver.quit();
        }
    }

    /**
     * A browser without a browser: redirects not followed, cookies kept per host and sent by path.
     * As Chromium does for 127.0.0.1 (a secure context), a Secure cookie goes over plain HTTP here:
     * the JDK's cookie manager would keep Keycloak's sign-in cookies back.
     */
    private static final class Agent {
        final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(10)).build();
        /** "host:port" is not the key: cookies are per host, as browsers keep them. */
        final Map<String, Map<String, String[]>> cookies = new HashMap<>();

        private HttpRequest.Builder withCookies(URI uri) {
            HttpRequest.Builder request = HttpRequest.newBuilder(uri);
            String header = cookies.getOrDefault(uri.getHost(), Map.of()).entrySet().stream()
                    .filter(c -> uri.getRawPath().startsWith(c.getValue()[1]))
                    .map(c -> c.getKey() + "=" + c.getValue()[0]).collect(Collectors.joining("; "));
            if (!header.isEmpty()) {
                request.header("Cookie", header);
            }
            return request;
        }

        private HttpResponse<String> keep(HttpResponse<String> answer) {
            String host = answer.request().uri().getHost();
            for (String set : answer.headers().allValues("Set-Cookie")) {
                String[] parts = set.split(";");
                String[] pair = parts[0].split("=", 2);
                String path = "/";
                boolean gone = pair.length < 2 || pair[1].isEmpty();
                for (String attribute : parts) {
                    String a = attribute.strip().toLowerCase(java.util.Locale.ROOT);
                    if (a.startsWith("path=")) {
                        path = attribute.strip().substring(5);
                    } else if (a.equals("max-age=0") || a.startsWith("expires=thu, 01 jan 1970") || a.startsWith("expires=thu, 01-jan-1970")) {
                        gone = true;
                    }
                }
                Map<String, String[]> jar = cookies.computeIfAbsent(host, h -> new HashMap<>());
                if (gone) {
                    jar.remove(pair[0].strip());
                } else {
                    jar.put(pair[0].strip(), new String[] {pair[1], path});
                }
            }
            return answer;
        }

        HttpResponse<String> get(String url) throws Exception {
            return keep(http.send(withCookies(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString()));
        }

        HttpResponse<String> post(String url, Map<String, String> form) throws Exception {
            String body = form.entrySet().stream().map(e -> enc(e.getKey()) + "=" + enc(e.getValue()))
                    .collect(Collectors.joining("&"));
            return keep(http.send(withCookies(URI.create(url)).header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString()));
        }

        /** From the account page's button through Keycloak's sign-in: where Keycloak sends the browser back. */
        String signInAtKeycloak(String username, String password) throws Exception {
            HttpResponse<String> login = get(Platform.api() + "/account");
            String page = login.body();
            int button = page.indexOf("id=\"provider_keycloak\"");
            int formStart = page.lastIndexOf("<form", button);
            Map<String, String> form = new HashMap<>(OAuthJourneyTest.BrowserlessUser.hiddenInputs(page.substring(formStart, button)));
            HttpResponse<String> onward = post(Platform.api() + "/account/federation/start", form);
            assertEquals(200, onward.statusCode(), onward.body());
            Matcher link = Pattern.compile("<a id=\"to_provider\" class=\"button\" href=\"([^\"]+)\"").matcher(onward.body());
            assertTrue(link.find(), onward.body());
            HttpResponse<String> keycloakPage = get(link.group(1).replace("&amp;", "&"));
            Matcher action = Pattern.compile("<form[^>]*id=\"kc-form-login\"[^>]*action=\"([^\"]+)\"|<form[^>]*action=\"([^\"]+)\"[^>]*id=\"kc-form-login\"")
                    .matcher(keycloakPage.body());
            assertTrue(action.find(), keycloakPage.body());
            String url = (action.group(1) != null ? action.group(1) : action.group(2)).replace("&amp;", "&");
            HttpResponse<String> back = post(url, Map.of("username", username, "password", password, "credentialId", ""));
            assertEquals(302, back.statusCode(), back.body());
            String callback = back.headers().firstValue("Location").orElseThrow();
            assertTrue(callback.startsWith(Platform.api() + "/account/federation/callback/" + KeycloakServer.PROVIDER + "?"), callback);
            return callback;
        }
    }

    @Test
    void aChangedStateOrAnotherBrowsersAnswerIsRefused() throws Exception {
        String keycloakName = Platform.uniqueName("hal-kc");
        keycloak.addUser(new KeycloakServer.User(keycloakName, "Hal", "Abelson", keycloakName + "@uni.example", "hal password"));
        Agent browser = new Agent();
        Map<String, String> answer = query(URI.create(browser.signInAtKeycloak(keycloakName, "hal password")));
        Map<String, String> changed = new HashMap<>(answer);
        changed.put("state", answer.get("state").substring(1) + "x");
        assertEquals(400, browser.post(Platform.api() + "/account/federation/callback/" + KeycloakServer.PROVIDER, changed).statusCode());
        // Another browser's attempt (its own state, nonce and PKCE) with this browser's answer.
        Agent other = new Agent();
        Map<String, String> othersAnswer = query(URI.create(other.signInAtKeycloak(keycloakName, "hal password")));
        Map<String, String> crossed = new HashMap<>(othersAnswer);
        crossed.put("state", answer.get("state"));
        HttpResponse<String> refused = browser.post(Platform.api() + "/account/federation/callback/" + KeycloakServer.PROVIDER, crossed);
        assertEquals(401, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("could not be verified"));
        // Keycloak took the other browser's code once (for the crossed answer), so it is spent for
        // its own attempt too. A browser's own answer, unchanged, goes on: to the choice for a new identity.
        assertEquals(401, other.post(Platform.api() + "/account/federation/callback/" + KeycloakServer.PROVIDER, othersAnswer).statusCode());
        Agent third = new Agent();
        HttpResponse<String> own = third.post(Platform.api() + "/account/federation/callback/" + KeycloakServer.PROVIDER,
                query(URI.create(third.signInAtKeycloak(keycloakName, "hal password"))));
        assertEquals(303, own.statusCode(), own.body());
        assertEquals(Platform.api().replaceFirst("^http://[^/]+", "") + "/account/federation/identity",
                own.headers().firstValue("Location").orElseThrow());
        assertFalse(browser.get(Platform.api() + "/account/federation/identity").statusCode() == 200,
                "nothing waits for the browser whose attempt was refused");
    }

    private static Map<String, String> query(URI uri) {
        Map<String, String> params = new HashMap<>();
        for (String pair : uri.getRawQuery().split("&")) {
            String[] kv = pair.split("=", 2);
            params.put(kv[0], URLDecoder.decode(kv.length > 1 ? kv[1] : "", StandardCharsets.UTF_8));
        }
        return params;
    }

    private static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
