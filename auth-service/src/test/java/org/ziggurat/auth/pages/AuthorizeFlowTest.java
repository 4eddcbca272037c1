package org.ziggurat.auth.pages;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport.App;
import org.ziggurat.auth.oauth.Pkce;
import org.ziggurat.platform.testing.ServiceDatabase;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.OAuthTestSupport.aliceTokens;
import static org.ziggurat.auth.OAuthTestSupport.createApp;
import static org.ziggurat.auth.OAuthTestSupport.introspect;
import static org.ziggurat.auth.OAuthTestSupport.post;

@QuarkusTest
class AuthorizeFlowTest {

    static final String CALLBACK = "https://app.example.org/callback";
    static final String VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk-and-some-more";

    /** A browser: its cookies, carried from answer to answer. */
    static final class Browser {
        final Map<String, String> cookies = new HashMap<>();

        Response get(String url) {
            Response r = given().redirects().follow(false).cookies(cookies).urlEncodingEnabled(false).get(url);
            remember(r);
            return r;
        }

        Response post(Map<String, String> form) {
            return post("/oauth/authorize", form);
        }

        Response post(String path, Map<String, String> form) {
            Response r = given().redirects().follow(false).cookies(cookies).contentType("application/x-www-form-urlencoded")
                    .formParams(form).post(path);
            remember(r);
            return r;
        }

        private void remember(Response r) {
            r.getDetailedCookies().asList().forEach(c -> {
                if (c.getMaxAge() == 0 || c.getValue().isEmpty()) {
                    cookies.remove(c.getName());
                } else {
                    cookies.put(c.getName(), c.getValue());
                }
            });
        }
    }

    static String authorizeUrl(App app, String redirectUri, String scope, String state, String challenge) {
        StringBuilder url = new StringBuilder("/oauth/authorize?response_type=code&client_id=").append(app.clientId());
        if (redirectUri != null) {
            url.append("&redirect_uri=").append(enc(redirectUri));
        }
        if (scope != null) {
            url.append("&scope=").append(enc(scope));
        }
        if (state != null) {
            url.append("&state=").append(enc(state));
        }
        if (challenge != null) {
            url.append("&code_challenge=").append(challenge).append("&code_challenge_method=S256");
        }
        return url.toString();
    }

    static String enc(String s) {
        return java.net.URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    static Map<String, String> hiddenFields(String html) {
        Map<String, String> fields = new HashMap<>();
        Matcher m = Pattern.compile("<input type=\"hidden\" name=\"([^\"]+)\" value=\"([^\"]*)\">").matcher(html);
        while (m.find()) {
            fields.put(m.group(1), m.group(2).replace("&amp;", "&").replace("&quot;", "\"").replace("&#39;", "'")
                    .replace("&lt;", "<").replace("&gt;", ">"));
        }
        return fields;
    }

    /** The value of {@code attribute} on the element with {@code id}, as the page has it (entities unresolved). */
    static String attribute(String html, String id, String attribute) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("<[^>]*\\bid=\"" + java.util.regex.Pattern.quote(id)
                + "\"[^>]*\\b" + attribute + "=\"([^\"]*)\"").matcher(html);
        assertTrue(m.find(), "no " + attribute + " on #" + id + " in " + html);
        return m.group(1);
    }

    static Map<String, String> query(String location) {
        return formDecode(URI.create(location).getRawQuery());
    }

    static Map<String, String> formDecode(String q) {
        Map<String, String> params = new HashMap<>();
        for (String pair : q == null ? new String[0] : q.split("&")) {
            String[] kv = pair.split("=", 2);
            params.put(kv[0], URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
        }
        return params;
    }

    /** Signs alice in through the login page and returns the answer to the authorization request. */
    static Response signIn(Browser browser, String url, String password) {
        Response page = browser.get(url);
        assertEquals(200, page.statusCode(), page.asString());
        Map<String, String> form = hiddenFields(page.asString());
        form.put("login", "alice");
        form.put("password", password);
        return browser.post(form);
    }

    /** Login, consent (approve), and the redirect with the code. */
    static Map<String, String> approve(Browser browser, App app, String scope, String state, String challenge) {
        String url = authorizeUrl(app, CALLBACK, scope, state, challenge);
        Response afterLogin = signIn(browser, url, "alice password 1");
        assertEquals(303, afterLogin.statusCode());
        Response consent = browser.get(relative(afterLogin.getHeader("Location")));
        assertEquals(200, consent.statusCode(), consent.asString());
        Map<String, String> form = hiddenFields(consent.asString());
        form.put("action", "approve");
        Response back = browser.post(form);
        assertEquals(303, back.statusCode(), back.asString());
        assertTrue(back.getHeader("Location").startsWith(CALLBACK + "?"), back.getHeader("Location"));
        return query(back.getHeader("Location"));
    }

    static String relative(String absolute) {
        URI uri = URI.create(absolute);
        String path = uri.getRawPath().replaceFirst("^/api", "");
        return path + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    }

    @Test
    void unknownClientsAndRedirectsAreErrorPagesNeverRedirects() {
        App app = createApp(true, "public user");
        for (String url : new String[] {
                "/oauth/authorize?response_type=code&client_id=NoSuchClient00000000&redirect_uri=" + enc(CALLBACK),
                authorizeUrl(app, "https://evil.example.org/callback", null, null, null),
                authorizeUrl(app, CALLBACK + "/more", null, null, null),
                authorizeUrl(app, CALLBACK + "?next=https://evil.example.org", null, null, null),
                authorizeUrl(app, "https://APP.example.org/callback", null, null, null),
                "/oauth/authorize?response_type=code"}) {
            new Browser().get(url).then().statusCode(400).header("Location", nullValue())
                    .contentType(startsWith("text/html"))
                    .header("X-Frame-Options", "DENY")
                    .header("Content-Security-Policy", containsString("frame-ancestors 'none'"))
                    .body(containsString("id=\"error_description\""));
        }
    }

    /**
     * Behind the gateway (its public host and /api prefix), the pages' forms and the browser's
     * redirects are paths: they stay on whatever host the browser used, and name /api once.
     */
    @Test
    void formsAndRedirectsArePathsBehindTheGateway() {
        App app = createApp(true, "public user");
        Browser browser = new Browser();
        String url = authorizeUrl(app, CALLBACK, "user", "s1", null);
        Response page = given().redirects().follow(false).urlEncodingEnabled(false).header("X-Forwarded-Proto", "https")
                .header("X-Forwarded-Host", "api.ziggurat.example").header("X-Forwarded-Prefix", "/api").get(url);
        page.then().statusCode(200).body(containsString("action=\"/api/oauth/authorize\""));
        browser.cookies.put(org.ziggurat.auth.authorization.LoginSessions.LOGIN_CSRF_COOKIE,
                page.getCookie(org.ziggurat.auth.authorization.LoginSessions.LOGIN_CSRF_COOKIE));
        Map<String, String> form = hiddenFields(page.asString());
        form.put("login", "alice");
        form.put("password", "alice password 1");
        Response signedIn = given().redirects().follow(false).cookies(browser.cookies).header("X-Forwarded-Proto", "https")
                .header("X-Forwarded-Host", "api.ziggurat.example").header("X-Forwarded-Prefix", "/api")
                .contentType("application/x-www-form-urlencoded").formParams(form).post("/oauth/authorize");
        signedIn.then().statusCode(303).header("Location", startsWith("/api/oauth/authorize?"));
    }

    @Test
    void cookiesAreSecureBehindHttps() {
        App app = createApp(true, "public user");
        String url = authorizeUrl(app, CALLBACK, "user", "s1", null);
        Response overHttps = given().redirects().follow(false).urlEncodingEnabled(false)
                .header("X-Forwarded-Proto", "https").header("X-Forwarded-Host", "api.ziggurat.example").get(url);
        overHttps.then().statusCode(200);
        io.restassured.http.Cookie csrf = overHttps.getDetailedCookie(org.ziggurat.auth.authorization.LoginSessions.LOGIN_CSRF_COOKIE);
        assertTrue(csrf.isSecured(), "a page served over HTTPS sets a cookie without Secure");
        assertTrue(csrf.isHttpOnly());
        assertEquals("Lax", csrf.getSameSite());
        // Plain HTTP (a local run): a Secure cookie would never come back, so it is not marked.
        assertFalse(given().redirects().follow(false).urlEncodingEnabled(false).get(url)
                .getDetailedCookie(org.ziggurat.auth.authorization.LoginSessions.LOGIN_CSRF_COOKIE).isSecured());
    }

    @Test
    void theLoginPageIsProtected() {
        App app = createApp(true, "public user");
        Browser browser = new Browser();
        Response page = browser.get(authorizeUrl(app, CALLBACK, "user", "s1", null));
        page.then().statusCode(200).contentType(startsWith("text/html"))
                .header("Content-Security-Policy", containsString("default-src 'none'"))
                .header("X-Frame-Options", "DENY").header("Cache-Control", "no-store")
                .body(containsString("name=\"password\"")).body(containsString("Test app"));
        // Its form may lead to the client, where a returning person's sign-in ends (Chromium holds
        // the redirects after a form's POST to its CSP), and nowhere else.
        page.then().header("Content-Security-Policy", containsString("form-action 'self' https://app.example.org;"));
        assertTrue(page.getDetailedCookie(org.ziggurat.auth.authorization.LoginSessions.LOGIN_CSRF_COOKIE).isHttpOnly());
        // Without the CSRF cookie's twin in the form: refused, no session.
        Map<String, String> form = hiddenFields(page.asString());
        form.put("csrf", "forged");
        form.put("login", "alice");
        form.put("password", "alice password 1");
        browser.post(form).then().statusCode(403);
        assertNull(browser.cookies.get(org.ziggurat.auth.authorization.LoginSessions.COOKIE));
        // A wrong password shows an error and makes no session.
        Response wrong = signIn(browser, authorizeUrl(app, CALLBACK, "user", "s1", null), "wrong password");
        wrong.then().statusCode(401).body(containsString("id=\"login_error\""));
        assertNull(browser.cookies.get(org.ziggurat.auth.authorization.LoginSessions.COOKIE));
        // The directory cannot check passwords now: the page says to try again, no session.
        Response again = browser.get(authorizeUrl(app, CALLBACK, "user", "s1", null));
        Map<String, String> away = hiddenFields(again.asString());
        away.put("login", org.ziggurat.auth.DirectoryDouble.AWAY);
        away.put("password", "whatever");
        browser.post(away).then().statusCode(503).contentType(startsWith("text/html"))
                .body(containsString("Try again shortly"));
        assertNull(browser.cookies.get(org.ziggurat.auth.authorization.LoginSessions.COOKIE));
    }

    /**
     * The review's finding: when the directory took longer than auth-service waits (as an account's
     * slow-down once did), the sign-in page answered the API's JSON 503 problem. It shows its own
     * page now, saying to try again, and makes no session.
     */
    @Test
    void aDirectoryThatDoesNotAnswerInTimeIsThePagesOwnTryAgain() {
        App app = createApp(true, "public user");
        Browser browser = new Browser();
        Response page = browser.get(authorizeUrl(app, CALLBACK, "user", "s-silent", null));
        Map<String, String> form = hiddenFields(page.asString());
        form.put("login", org.ziggurat.auth.DirectoryDouble.SILENT);
        form.put("password", "whatever");
        browser.post(form).then().statusCode(503).contentType(startsWith("text/html"))
                .body(containsString("Try again shortly")).body(containsString("name=\"password\""));
        assertNull(browser.cookies.get(org.ziggurat.auth.authorization.LoginSessions.COOKIE));
    }

    @Test
    void approvalRedirectsWithACodeThatExchangesOnce() {
        App app = createApp(true, "public user");
        Browser browser = new Browser();
        Response afterLogin = signIn(browser, authorizeUrl(app, CALLBACK, "user", "xyz", null), "alice password 1");
        afterLogin.then().statusCode(303);
        io.restassured.http.Cookie session = afterLogin.getDetailedCookie(org.ziggurat.auth.authorization.LoginSessions.COOKIE);
        assertTrue(session.isHttpOnly());
        assertEquals("Lax", session.getSameSite());
        Response consent = browser.get(relative(afterLogin.getHeader("Location")));
        consent.then().statusCode(200).body(containsString("Authorize Test app")).body(containsString("private profile"))
                .header("Content-Security-Policy", containsString("form-action 'self' https://app.example.org"));
        // A consent POST without the session's CSRF token is refused.
        Map<String, String> forged = hiddenFields(consent.asString());
        forged.put("csrf", "forged");
        forged.put("action", "approve");
        browser.post(forged).then().statusCode(403).header("Location", nullValue());
        Map<String, String> form = hiddenFields(consent.asString());
        form.put("action", "approve");
        int logged = org.ziggurat.auth.DirectoryDouble.SECURITY_LOG.size();
        Response back = browser.post(form);
        back.then().statusCode(303);
        assertTrue(org.ziggurat.auth.DirectoryDouble.SECURITY_LOG.stream().skip(logged).anyMatch(e ->
                        e.getString("kind").equals("application_authorized") && e.getString("detail").equals("Test app")
                                && e.getLong("person_id") == 101),
                "the consent is in alice's security log");
        Map<String, String> answer = query(back.getHeader("Location"));
        assertEquals("xyz", answer.get("state"));
        String codeValue = answer.get("code");
        assertNotNull(codeValue);

        // Form encoding, the spec's legacy format of the code exchange, for a client that asks for it.
        String formEncoded = given().auth().preemptive().basic(app.clientId(), app.secret())
                .accept("application/x-www-form-urlencoded").contentType("application/x-www-form-urlencoded")
                .body("grant_type=authorization_code&code=" + codeValue + "&redirect_uri=" + enc(CALLBACK))
                .post("/oauth/token").then().statusCode(200).contentType(startsWith("application/x-www-form-urlencoded"))
                .extract().asString();
        Map<String, String> tokens = formDecode(formEncoded);
        assertEquals("bearer", tokens.get("token_type"));
        introspect(tokens.get("access_token")).body("active", equalTo(true)).body("username", equalTo("alice"))
                .body("scope", equalTo("user"));
        // A replay is refused and revokes what the code issued.
        post("/oauth/token", app, "grant_type", "authorization_code", "code", codeValue, "redirect_uri", CALLBACK)
                .statusCode(400).body("error", equalTo("invalid_grant"));
        introspect(tokens.get("access_token")).body("active", equalTo(false));

        // The consent is remembered: the next request goes straight back with a code.
        Response again = browser.get(authorizeUrl(app, CALLBACK, "user", "again", null));
        again.then().statusCode(303).header("Location", startsWith(CALLBACK + "?code="));
        // public is every token's baseline: asking for it too needs no new consent.
        browser.get(authorizeUrl(app, CALLBACK, "user public", null, null)).then().statusCode(303);
    }

    /**
     * A standard client (OpenID Connect Core §3.1.3.3, RFC 6749 §5.1; mod_auth_openidc sends no
     * Accept at all) reads the code exchange's answer as JSON: JSON it is, with no Accept or any;
     * form encoding and XML only for a client that asks.
     */
    @Test
    void theCodeExchangeAnswersJsonUnlessTheClientAsksForFormOrXml() {
        for (String accept : new String[] {null, "*/*", "application/json", "text/html, */*;q=0.8"}) {
            App app = createApp(true, "public user");
            Map<String, String> answer = approve(new Browser(), app, "user", "s", null);
            var request = given().auth().preemptive().basic(app.clientId(), app.secret())
                    .contentType("application/x-www-form-urlencoded")
                    .body("grant_type=authorization_code&code=" + answer.get("code") + "&redirect_uri=" + enc(CALLBACK));
            if (accept != null) {
                request = request.accept(accept);
            } else {
                request = request.header("Accept", "");
            }
            request.post("/oauth/token").then().statusCode(200).contentType(startsWith("application/json"))
                    .body("token_type", equalTo("bearer")).body("access_token", startsWith("zat_"));
        }
        App app = createApp(true, "public user");
        Map<String, String> answer = approve(new Browser(), app, "user", "s", null);
        given().auth().preemptive().basic(app.clientId(), app.secret()).accept("application/x-www-form-urlencoded")
                .contentType("application/x-www-form-urlencoded")
                .body("grant_type=authorization_code&code=" + answer.get("code") + "&redirect_uri=" + enc(CALLBACK))
                .post("/oauth/token").then().statusCode(200).contentType(startsWith("application/x-www-form-urlencoded"))
                .body(containsString("token_type=bearer"));
    }

    @Test
    void widerScopesAskAgain() {
        App app = createApp(true, "public user write");
        Browser browser = new Browser();
        approve(browser, app, "user", null, null);
        browser.get(authorizeUrl(app, CALLBACK, "user write", null, null)).then().statusCode(200)
                .body(containsString("id=\"approve\"")).body(containsString("create content"));
        // A scope the application may not ask for: an error page, not a redirect (RFC 9700 §4.11.2).
        browser.get(authorizeUrl(app, CALLBACK, "admin", "s", null)).then().statusCode(400)
                .header("Location", nullValue()).body(containsString("invalid_scope"));
    }

    /** RFC 9700 §4.11.2: no error goes back to the client without the person's own answer. */
    @Test
    void badRequestsShowAnErrorPageAndNeverRedirect() {
        App app = createApp(true, "public user");
        Browser browser = new Browser();
        for (String url : new String[] {
                authorizeUrl(app, CALLBACK, "user", "s", null).replace("response_type=code", "response_type=token"),
                authorizeUrl(app, CALLBACK, "user", "s", null).replace("response_type=code&", ""),
                authorizeUrl(app, CALLBACK, "admin", "s", null),
                authorizeUrl(app, CALLBACK, "nonsense", "s", null),
                authorizeUrl(app, CALLBACK, null, "s", null) + "&code_challenge=x&code_challenge_method=plain"}) {
            browser.get(url).then().statusCode(400).header("Location", nullValue())
                    .contentType(startsWith("text/html")).body(containsString("id=\"error_description\""));
        }
    }

    /**
     * The pages carry the request in hidden fields: a consent (or login) post with those fields
     * changed is checked again as the first request was, and issues nothing.
     */
    @Test
    void theApprovalChecksTheRequestAgain() throws Exception {
        App app = createApp(false, "public user");
        String challenge = Pkce.s256(VERIFIER);
        Browser browser = new Browser();
        Response afterLogin = signIn(browser, authorizeUrl(app, CALLBACK, "user", "st", challenge), "alice password 1");
        Response consent = browser.get(relative(afterLogin.getHeader("Location")));
        consent.then().statusCode(200);
        Map<String, Map<String, String>> tampered = new java.util.LinkedHashMap<>();
        tampered.put("a scope the application did not register", Map.of("scope", "user admin"));
        tampered.put("an unknown scope", Map.of("scope", "user everything"));
        tampered.put("no PKCE from a public client", Map.of("code_challenge", "", "code_challenge_method", ""));
        tampered.put("another response type", Map.of("response_type", "token"));
        int codesBefore = codesOf(app);
        for (Map.Entry<String, Map<String, String>> change : tampered.entrySet()) {
            Map<String, String> form = hiddenFields(consent.asString());
            form.put("action", "approve");
            form.putAll(change.getValue());
            form.values().removeIf(String::isEmpty);
            browser.post(form).then().statusCode(400).header("Location", nullValue());
            Map<String, String> login = hiddenFields(consent.asString());
            login.putAll(change.getValue());
            login.values().removeIf(String::isEmpty);
            login.put("action", "login");
            login.put("login", "alice");
            login.put("password", "alice password 1");
            browser.post(login).then().statusCode(400).header("Location", nullValue());
        }
        assertEquals(codesBefore, codesOf(app), "a tampered approval issued a code");
        // Untouched, the same form issues a code for what was asked.
        Map<String, String> form = hiddenFields(consent.asString());
        form.put("action", "approve");
        assertNotNull(query(browser.post(form).then().statusCode(303).extract().header("Location")).get("code"));
        assertEquals(codesBefore + 1, codesOf(app));
    }

    static int codesOf(App app) throws Exception {
        try (Connection c = ServiceDatabase.connect(); var rows = c.createStatement()
                .executeQuery("SELECT count(*) FROM authorization_code WHERE application_id = " + app.id())) {
            rows.next();
            return rows.getInt(1);
        }
    }

    @Test
    void denialRedirectsWithAccessDenied() {
        App app = createApp(true, "public user");
        Browser browser = new Browser();
        Response afterLogin = signIn(browser, authorizeUrl(app, CALLBACK, "user", "st", null), "alice password 1");
        Response consent = browser.get(relative(afterLogin.getHeader("Location")));
        Map<String, String> form = hiddenFields(consent.asString());
        form.put("action", "deny");
        Map<String, String> answer = query(browser.post(form).then().statusCode(303).extract().header("Location"));
        assertEquals("access_denied", answer.get("error"));
        assertEquals("st", answer.get("state"));
        assertNull(answer.get("code"));
    }

    @Test
    void pkceIsRequiredForPublicClientsAndChecked() {
        App publicApp = createApp(false, "public user");
        Browser browser = new Browser();
        // No challenge from a public client: an error page (RFC 9700 §4.11.2: no redirect without interaction).
        browser.get(authorizeUrl(publicApp, CALLBACK, "user", "p", null)).then().statusCode(400)
                .header("Location", nullValue()).body(containsString("invalid_request"));
        // The plain method is refused.
        browser.get(authorizeUrl(publicApp, CALLBACK, null, null, null) + "&code_challenge=" + VERIFIER
                + "&code_challenge_method=plain").then().statusCode(400).body(containsString("invalid_request"));

        String challenge = Pkce.s256(VERIFIER);
        String codeValue = approve(browser, publicApp, "user", null, challenge).get("code");
        post("/oauth/token", null, "grant_type", "authorization_code", "client_id", publicApp.clientId(), "code", codeValue,
                "redirect_uri", CALLBACK).statusCode(400).body("error", equalTo("invalid_grant"));
        // A refused exchange rolls back: the code stays for its rightful client. Each case takes a fresh code anyway.
        String second = approveAgain(browser, publicApp, challenge);
        post("/oauth/token", null, "grant_type", "authorization_code", "client_id", publicApp.clientId(), "code", second,
                "redirect_uri", CALLBACK, "code_verifier", VERIFIER.replace('d', 'e')).statusCode(400)
                .body("error", equalTo("invalid_grant"));
        String third = approveAgain(browser, publicApp, challenge);
        post("/oauth/token", null, "grant_type", "authorization_code", "client_id", publicApp.clientId(), "code", third,
                "redirect_uri", CALLBACK, "code_verifier", VERIFIER).statusCode(200).body("scope", equalTo("user"));
    }

    private static String approveAgain(Browser browser, App app, String challenge) {
        Response r = browser.get(authorizeUrl(app, CALLBACK, "user", null, challenge));
        assertEquals(303, r.statusCode(), r.asString());
        return query(r.getHeader("Location")).get("code");
    }

    @Test
    void codesAreBoundToClientRedirectAndVerifier() {
        App app = createApp(true, "public user", CALLBACK, "https://app.example.org/other");
        Browser browser = new Browser();
        String first = approve(browser, app, "user", null, null).get("code");
        post("/oauth/token", app, "grant_type", "authorization_code", "code", first,
                "redirect_uri", "https://app.example.org/other").statusCode(400).body("error", equalTo("invalid_grant"));
        String second = approveAgain(browser, app, null);
        App other = createApp(true, "public user");
        post("/oauth/token", other, "grant_type", "authorization_code", "code", second, "redirect_uri", CALLBACK)
                .statusCode(400).body("error", equalTo("invalid_grant"));
        String third = approveAgain(browser, app, null);
        // A verifier for a code that had no challenge: refused (no PKCE downgrade games).
        post("/oauth/token", app, "grant_type", "authorization_code", "code", third, "redirect_uri", CALLBACK,
                "code_verifier", VERIFIER).statusCode(400).body("error", equalTo("invalid_grant"));
    }

    @Test
    void expiredCodesAreRefused() throws Exception {
        App app = createApp(true, "public user");
        String codeValue = approve(new Browser(), app, "user", null, null).get("code");
        try (Connection c = ServiceDatabase.connect()) {
            c.createStatement().execute("UPDATE auth.authorization_code SET expires_at = now() - interval '1 second' "
                    + "WHERE application_id = " + app.id());
        }
        post("/oauth/token", app, "grant_type", "authorization_code", "code", codeValue, "redirect_uri", CALLBACK)
                .statusCode(400).body("error", equalTo("invalid_grant")).body("error_description", containsString("expired"));
    }

    @Test
    void outOfBandShowsTheCodeOnAPage() {
        App app = createApp(true, "public user", "urn:ietf:wg:oauth:2.0:oob");
        Browser browser = new Browser();
        browser.get(authorizeUrl(app, "urn:ietf:wg:oauth:2.0:oob", "user", null, null)).then()
                .header("Content-Security-Policy", containsString("form-action 'self';"));
        Response afterLogin = signIn(browser, authorizeUrl(app, "urn:ietf:wg:oauth:2.0:oob", "user", null, null),
                "alice password 1");
        Response consent = browser.get(relative(afterLogin.getHeader("Location")));
        Map<String, String> form = hiddenFields(consent.asString());
        form.put("action", "approve");
        String location = browser.post(form).then().statusCode(303).extract().header("Location");
        assertTrue(location.contains("/oauth/authorize/zac_"), location);
        String page = browser.get(relative(location)).then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("<code id=\"authorization_code\" class=\"code\">([^<]+)</code>").matcher(page);
        assertTrue(m.find(), page);
        post("/oauth/token", app, "grant_type", "authorization_code", "code", m.group(1),
                "redirect_uri", "urn:ietf:wg:oauth:2.0:oob").statusCode(200);
        given().get("/oauth/authorize/not-a-code").then().statusCode(404);
        given().get("/oauth/authorize/zac_<script>").then().statusCode(404).body(not(containsString("<script>")));
    }

    /**
     * OpenID Connect Core §3.1.2.1: the authorization endpoint takes the request by POST as by GET.
     * Posted (no action, no username, no token), it shows the same sign-in page, and the sign-in
     * goes on to the code as from the GET; a repeated parameter is an error page, never a redirect.
     */
    @Test
    void aPostedAuthorizationRequestIsTheSameRequestAsTheGet() {
        App app = createApp(true, "public user");
        String url = authorizeUrl(app, CALLBACK, "user", "posted-state", null);
        Map<String, String> request = formDecode(URI.create(url).getRawQuery());
        Browser browser = new Browser();
        Response page = browser.post(request);
        assertEquals(200, page.statusCode(), page.asString());
        Map<String, String> form = hiddenFields(page.asString());
        assertEquals(hiddenFields(new Browser().get(url).asString()).keySet(), form.keySet(), "the GET's sign-in form");
        form.put("login", "alice");
        form.put("password", "alice password 1");
        Response afterLogin = browser.post(form);
        assertEquals(303, afterLogin.statusCode(), afterLogin.asString());
        Response consent = browser.get(relative(afterLogin.getHeader("Location")));
        Map<String, String> approval = hiddenFields(consent.asString());
        approval.put("action", "approve");
        Response back = browser.post(approval);
        assertEquals(303, back.statusCode(), back.asString());
        assertEquals("posted-state", query(back.getHeader("Location")).get("state"));
        given().redirects().follow(false).contentType("application/x-www-form-urlencoded")
                .body(URI.create(url).getRawQuery() + "&state=again").post("/oauth/authorize").then().statusCode(400)
                .header("Location", nullValue());
    }

    @Test
    void theApiFormNeedsTheResourceOwnersToken() {
        App app = createApp(true, "public user", "urn:ietf:wg:oauth:2.0:oob");
        String aliceToken = post("/oauth/token", null, "grant_type", "password", "username", "alice",
                "password", "alice password 1", "scope", "user").statusCode(200).extract().path("access_token");
        String form = "response_type=code&client_id=" + app.clientId() + "&client_secret=" + app.secret()
                + "&redirect_uri=" + enc("urn:ietf:wg:oauth:2.0:oob") + "&username=alice&scope=user";
        given().redirects().follow(false).contentType("application/x-www-form-urlencoded").body(form)
                .post("/oauth/authorize").then().statusCode(401);
        given().redirects().follow(false).header("Authorization", "Bearer " + aliceToken)
                .contentType("application/x-www-form-urlencoded").body(form.replace("username=alice", "username=bob"))
                .post("/oauth/authorize").then().statusCode(403);
        Response created = apiAuthorize(aliceToken, form);
        created.then().statusCode(302).header("Location", containsString("/oauth/authorize/zac_"))
                .body(containsString("id=\"redirect_link\""));
        String codeValue = created.getHeader("Location").replaceFirst(".*/oauth/authorize/", "");
        String issued = post("/oauth/token", app, "grant_type", "authorization_code", "code", codeValue,
                "redirect_uri", "urn:ietf:wg:oauth:2.0:oob").statusCode(200).extract().path("access_token");
        // The authorization it starts ends no later than the token's: never a longer grant.
        long tokensEnd = ((Number) introspect(aliceToken).extract().path("authorization_exp")).longValue();
        introspect(issued).body("scope", equalTo("user"))
                .body("authorization_exp", org.hamcrest.Matchers.lessThanOrEqualTo((int) tokensEnd));
    }

    /**
     * The review's escalation: a person's token of any client (even a public one of another
     * application) minted a code with every scope the target registered, and recorded consent.
     * Now the token must be the person's own (no client), and carry every scope asked for. The third
     * review: even the asking application's own token (a session's, or an exchanged one) made a new
     * grant with refresh tokens that outlived its session; it is refused too.
     */
    @Test
    void theApiFormNeverGrantsMoreThanThePresentedToken() throws Exception {
        App target = createApp(true, "public user write update admin");
        App other = createApp(true, "public user write update admin");
        String base = "response_type=code&client_id=" + target.clientId() + "&client_secret=" + target.secret()
                + "&redirect_uri=" + enc(CALLBACK) + "&username=alice";
        int codes = codesOf(target);

        // Another application's token, even one with every scope: refused.
        String othersToken = (String) aliceTokens(other, "user write update admin").get("access_token");
        apiAuthorize(othersToken, base + "&scope=public").then().statusCode(403)
                .header("WWW-Authenticate", containsString("insufficient_scope"))
                .body("error", equalTo("insufficient_scope"));
        // The person's own token without a client, with the public scope only: no wider code.
        String ownPublic = post("/oauth/token", null, "grant_type", "password", "username", "alice",
                "password", "alice password 1").statusCode(200).extract().path("access_token");
        apiAuthorize(ownPublic, base + "&scope=" + enc("user write update admin")).then().statusCode(403)
                .body("error", equalTo("insufficient_scope"));
        apiAuthorize(ownPublic, base + "&scope=admin").then().statusCode(403).body("error", equalTo("insufficient_scope"));
        // A token of the asking application: not the person's own either.
        String targetsUser = (String) aliceTokens(target, "user").get("access_token");
        apiAuthorize(targetsUser, base + "&scope=user").then().statusCode(403)
                .body("error", equalTo("insufficient_scope"));
        assertEquals(codes, codesOf(target), "a refused API authorization issued a code");
        // Nothing refused was recorded as consent: the browser flow still asks for write.
        Browser browser = new Browser();
        signIn(browser, authorizeUrl(target, CALLBACK, "user write", null, null), "alice password 1").then().statusCode(303);
        browser.get(authorizeUrl(target, CALLBACK, "user write", null, null)).then().statusCode(200)
                .body(containsString("id=\"approve\""));

        // Within the token's scopes, the code carries exactly what was asked.
        String ownUser = post("/oauth/token", null, "grant_type", "password", "username", "alice",
                "password", "alice password 1", "scope", "user").statusCode(200).extract().path("access_token");
        Response ok = apiAuthorize(ownUser, base + "&scope=user&state=" + enc("st 1"));
        ok.then().statusCode(302);
        String codeValue = query(ok.getHeader("Location")).get("code");
        post("/oauth/token", target, "grant_type", "authorization_code", "code", codeValue, "redirect_uri", CALLBACK)
                .statusCode(200).body("scope", equalTo("user"));
    }

    /** Only scopes the application registered, whatever the token carries: invalid_scope. */
    @Test
    void theApiFormKeepsToTheApplicationsScopes() {
        App app = createApp(true, "public user");
        String own = post("/oauth/token", null, "grant_type", "password", "username", "alice",
                "password", "alice password 1", "scope", "user write admin").statusCode(200).extract().path("access_token");
        apiAuthorize(own, "response_type=code&client_id=" + app.clientId() + "&client_secret=" + app.secret()
                + "&redirect_uri=" + enc(CALLBACK) + "&username=alice&scope=admin").then().statusCode(400)
                .body("error", equalTo("invalid_scope"));
    }

    /**
     * RFC 6749 §4.1.2: with a registered https (or loopback) redirect URI the API form answers
     * with a redirect to it, with code and state; parsed here by a standard client library.
     */
    @Test
    void theApiFormRedirectsToTheRegisteredUriWithCodeAndState() throws Exception {
        App app = createApp(true, "public user", CALLBACK, "http://127.0.0.1:8765/cb");
        String own = post("/oauth/token", null, "grant_type", "password", "username", "alice",
                "password", "alice password 1", "scope", "user").statusCode(200).extract().path("access_token");
        for (String redirectUri : new String[] {CALLBACK, "http://127.0.0.1:8765/cb"}) {
            Response answer = apiAuthorize(own, "response_type=code&client_id=" + app.clientId() + "&client_secret="
                    + app.secret() + "&redirect_uri=" + enc(redirectUri) + "&username=alice&scope=user&state=" + enc("a b&c"));
            answer.then().statusCode(302);
            com.nimbusds.oauth2.sdk.AuthorizationResponse parsed = com.nimbusds.oauth2.sdk.AuthorizationResponse.parse(
                    URI.create(answer.getHeader("Location")));
            assertTrue(parsed.indicatesSuccess(), answer.getHeader("Location"));
            assertEquals(URI.create(redirectUri), parsed.getRedirectionURI());
            assertEquals("a b&c", parsed.getState().getValue());
            post("/oauth/token", app, "grant_type", "authorization_code", "code",
                    parsed.toSuccessResponse().getAuthorizationCode().getValue(), "redirect_uri", redirectUri)
                    .statusCode(200).body("scope", equalTo("user"));
        }
    }

    static Response apiAuthorize(String token, String form) {
        return given().redirects().follow(false).header("Authorization", "Bearer " + token)
                .contentType("application/x-www-form-urlencoded").body(form).post("/oauth/authorize");
    }

    @Test
    void deleteRevokesTheAuthorizationAndRedirects() {
        App app = createApp(true, "public user");
        Map<String, Object> tokens = aliceTokens(app, "user");
        String access = (String) tokens.get("access_token");
        given().redirects().follow(false).contentType("application/x-www-form-urlencoded")
                .body("response_type=token&access_token=" + access + "&client_id=" + app.clientId() + "&client_secret="
                        + app.secret() + "&redirect_uri=" + enc(CALLBACK) + "&username=alice")
                .delete("/oauth/authorize").then().statusCode(303).header("Location", CALLBACK);
        introspect(access).body("active", equalTo(false));
        post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token", (String) tokens.get("refresh_token"))
                .statusCode(400);
    }
}
