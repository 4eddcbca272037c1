package org.ziggurat.auth.pages;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport.App;
import org.ziggurat.auth.authorization.LoginSessions;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.OAuthTestSupport.asPerson;
import static org.ziggurat.auth.OAuthTestSupport.post;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.hiddenFields;

/** The device authorization grant (RFC 8628): the device's side at the endpoints, the person's on the page. */
@QuarkusTest
class DeviceFlowTest {

    static final String GRANT = "urn:ietf:params:oauth:grant-type:device_code";
    static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    Pool pool;

    @Inject
    org.ziggurat.auth.crypto.TokenCrypto crypto;

    /** A command-line tool: a public client. */
    static App tool(String scopes) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", "Lab CLI");
        body.put("redirect_uris", List.of("urn:ietf:wg:oauth:2.0:oob"));
        body.put("scopes", scopes);
        body.put("confidential", false);
        var created = asPerson(900, "owner", "admin").contentType("application/json").body(body).post("/applications")
                .then().statusCode(201).extract();
        return new App(((Number) created.path("id")).longValue(), created.path("client_id"), null);
    }

    static Map<String, Object> start(App app, String scope) {
        return given().contentType("application/x-www-form-urlencoded").accept("application/json")
                .formParam("client_id", app.clientId()).formParam("scope", scope).post("/oauth/device_authorization")
                .then().statusCode(200).header("Cache-Control", "no-store").extract().jsonPath().getMap("$");
    }

    static io.restassured.response.ValidatableResponse poll(App app, Object deviceCode) {
        return given().contentType("application/x-www-form-urlencoded").accept("application/json")
                .formParam("grant_type", GRANT).formParam("client_id", app.clientId())
                .formParam("device_code", (String) deviceCode).post("/oauth/token").then();
    }

    /** As if the interval had passed since the last poll, without waiting for it. */
    void intervalPassed(Object deviceCode) {
        pool.query("UPDATE device_authorization SET last_polled_at = now() - interval '1 hour'").execute().await().atMost(WAIT);
    }

    /** A browser on the verification page. */
    static final class Person {
        final AuthorizeFlowTest.Browser browser = new AuthorizeFlowTest.Browser();
        final Map<String, String> cookies = browser.cookies;

        Response get(String url) {
            return browser.get(url);
        }

        Response post(Map<String, String> form) {
            return browser.post("/oauth/device", form);
        }

        /** Signs alice in on the page of {@code url}; the page after. */
        Response signIn(String url) {
            Response page = get(url);
            assertTrue(page.asString().contains("id=\"sign_in\""), page.asString());
            assertTrue(page.asString().contains("action=\"/oauth/device\""), "the sign-in posts back to the device page");
            Map<String, String> form = hiddenFields(page.asString());
            form.put("login", "alice");
            form.put("password", "alice password 1");
            Response signedIn = post(form);
            assertEquals(303, signedIn.statusCode(), signedIn.asString());
            return get(signedIn.getHeader("Location"));
        }

        /** The code page as verification_uri_complete filled it in, sent as the person would: the confirmation. */
        Response sendFilledIn(Response codePage) {
            codePage.then().statusCode(200);
            java.util.regex.Matcher filled = java.util.regex.Pattern.compile("id=\"user_code\"[^>]*value=\"([^\"]*)\"")
                    .matcher(codePage.asString());
            assertTrue(filled.find(), "the code is filled in: " + codePage.asString());
            Map<String, String> form = hiddenFields(codePage.asString());
            form.put("user_code", filled.group(1));
            return post(form);
        }

        Response answer(Response confirmation, String action) {
            Map<String, String> form = hiddenFields(confirmation.asString());
            form.put("action", action);
            return post(form);
        }
    }

    @Test
    void aDeviceIsAuthorizedOnceThePersonApproves() throws Exception {
        App app = tool("openid user");
        Map<String, Object> started = start(app, "openid user");
        assertTrue(((String) started.get("device_code")).startsWith("zdc_"));
        String userCode = (String) started.get("user_code");
        assertTrue(userCode.matches("[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}"), userCode);
        assertEquals("http://localhost:8080/api/oauth/device", started.get("verification_uri"));
        assertEquals("http://localhost:8080/api/oauth/device?user_code=" + userCode, started.get("verification_uri_complete"));
        assertEquals(600, started.get("expires_in"));
        assertEquals(5, started.get("interval"));

        // Polling before the person answers; polling too fast.
        poll(app, started.get("device_code")).statusCode(400).body("error", equalTo("authorization_pending"));
        poll(app, started.get("device_code")).statusCode(400).body("error", equalTo("slow_down"));
        assertEquals(10, pool.preparedQuery("SELECT interval_seconds FROM device_authorization WHERE application_id = $1")
                .execute(Tuple.of(app.id())).await().atMost(WAIT).iterator().next().getInteger(0),
                "slow_down adds 5 s to the interval");

        // The person: sign in, enter the code (typed in lower case, without the dash), approve.
        Person alice = new Person();
        Response codePage = alice.signIn("/oauth/device");
        codePage.then().statusCode(200).body(containsString("id=\"user_code\""));
        Map<String, String> enter = hiddenFields(codePage.asString());
        enter.put("user_code", userCode.replace("-", "").toLowerCase());
        Response confirmation = alice.post(enter);
        confirmation.then().statusCode(200).body(containsString("Lab CLI")).body(containsString(userCode))
                .body(containsString("id=\"approve\""));
        alice.answer(confirmation, "approve").then().statusCode(200).body(containsString("id=\"device_done\""));

        intervalPassed(started.get("device_code"));
        Map<String, Object> tokens = poll(app, started.get("device_code")).statusCode(200)
                .body("scope", equalTo("user openid")).extract().jsonPath().getMap("$");
        assertNotNull(tokens.get("refresh_token"));
        assertNotNull(tokens.get("id_token"), "openid was asked: an ID token too");
        given().auth().oauth2((String) tokens.get("access_token")).get("/oauth/userinfo").then().statusCode(200)
                .body("sub", equalTo("101"));
        // Once only.
        intervalPassed(started.get("device_code"));
        poll(app, started.get("device_code")).statusCode(400).body("error", equalTo("invalid_grant"));
        // The person now sees the tool among their authorized applications (a grant, as after consent).
        asPerson(101, "alice", "user").get("/applications/grants").then().statusCode(200)
                .body("app.client_id", org.hamcrest.Matchers.hasItem(app.clientId()));
    }

    @Test
    void thePersonMayDenyAndTheCodeMayExpire() {
        App app = tool("user");
        Map<String, Object> denied = start(app, "user");
        Person alice = new Person();
        Response confirmation = alice.sendFilledIn(alice.signIn("/oauth/device?user_code=" + denied.get("user_code")));
        confirmation.then().statusCode(200).body(containsString("id=\"deny\""));
        alice.answer(confirmation, "deny").then().statusCode(200).body(containsString("id=\"device_refused\""));
        poll(app, denied.get("device_code")).statusCode(400).body("error", equalTo("access_denied"));
        // Answered: the code names nothing to answer any more.
        alice.answer(confirmation, "approve").then().statusCode(400);

        Map<String, Object> late = start(app, "user");
        pool.preparedQuery("UPDATE device_authorization SET expires_at = now() - interval '1 second' WHERE status = 'pending'")
                .execute(Tuple.tuple()).await().atMost(WAIT);
        poll(app, late.get("device_code")).statusCode(400).body("error", equalTo("expired_token"));
        alice.sendFilledIn(alice.get("/oauth/device?user_code=" + late.get("user_code"))).then().statusCode(400)
                .body(containsString("id=\"device_error\""));
    }

    @Test
    void aDeviceCodeIsItsClientsOnly() {
        App app = tool("user");
        App other = tool("user");
        Map<String, Object> started = start(app, "user");
        poll(other, started.get("device_code")).statusCode(400).body("error", equalTo("invalid_grant"));
        // Another client's poll changed nothing: the client's own first poll is not too soon.
        poll(app, started.get("device_code")).statusCode(400).body("error", equalTo("authorization_pending"));
        poll(app, "zdc_not-a-device-code").statusCode(400).body("error", equalTo("invalid_grant"));
        // Scopes the application may not ask for; a confidential client that does not authenticate.
        given().contentType("application/x-www-form-urlencoded").formParam("client_id", app.clientId())
                .formParam("scope", "admin").post("/oauth/device_authorization").then().statusCode(400)
                .body("error", equalTo("invalid_scope"));
        App confidential = org.ziggurat.auth.OAuthTestSupport.createApp(true, "user");
        given().contentType("application/x-www-form-urlencoded").formParam("client_id", confidential.clientId())
                .formParam("scope", "user").post("/oauth/device_authorization").then().statusCode(401);
        post("/oauth/device_authorization", confidential, "scope", "user").statusCode(200);
    }

    @Test
    void wrongCodesLockTheFormForAWhileNotTheSession() {
        App app = tool("user");
        Map<String, Object> started = start(app, "user");
        Person guesser = new Person();
        Response page = guesser.signIn("/oauth/device");
        for (int i = 1; i <= 4; i++) {
            Map<String, String> form = hiddenFields(page.asString());
            form.put("user_code", "BCDF-GHJ" + "KLMN".charAt(i - 1));
            page = guesser.post(form);
            page.then().statusCode(400).body(containsString("id=\"device_error\""));
        }
        Map<String, String> fifth = hiddenFields(page.asString());
        fifth.put("user_code", "ZZZZ-ZZZZ");
        guesser.post(fifth).then().statusCode(429).body(containsString("Too many wrong codes. Try again in 15 minutes."));
        // Locked: even the right code waits, on this session only.
        Map<String, String> right = hiddenFields(page.asString());
        right.put("user_code", (String) started.get("user_code"));
        guesser.post(right).then().statusCode(429).body(containsString("Too many wrong codes"));
        // The session goes on: the page still knows the person, and once the lock is over the right code works.
        guesser.get("/oauth/device").then().statusCode(200).body(containsString("id=\"user_code\""))
                .body(not(containsString("id=\"sign_in\"")));
        pool.query("UPDATE login_session SET user_code_locked_until = now() - interval '1 second' "
                + "WHERE user_code_locked_until IS NOT NULL").execute().await().atMost(WAIT);
        guesser.post(right).then().statusCode(200).body(containsString("id=\"approve\""));
    }

    @Test
    void aGetWithACodeChangesNothing() {
        App app = tool("user");
        Map<String, Object> started = start(app, "user");
        Person alice = new Person();
        alice.signIn("/oauth/device");
        // Another site sends the browser here with wrong codes, as often as it likes (a top-level
        // navigation carries the Lax session cookie): nothing is looked up, counted or ended.
        for (int i = 0; i < 8; i++) {
            Response page = alice.get("/oauth/device?user_code=ZZZZ-ZZZ" + "BCDFGHJK".charAt(i));
            page.then().statusCode(200).body(containsString("value=\"ZZZZ-ZZZ" + "BCDFGHJK".charAt(i) + "\""))
                    .body(not(containsString("id=\"device_error\""))).body(not(containsString("id=\"approve\"")));
        }
        assertEquals(0, pool.preparedQuery("SELECT count(*) FROM login_session WHERE session_hash = $1 AND "
                + "(user_code_failures > 0 OR user_code_locked_until IS NOT NULL)").execute(Tuple.of(io.vertx.core.buffer.Buffer
                        .buffer(crypto.hash(alice.cookies.get(LoginSessions.COOKIE))))).await().atMost(WAIT)
                .iterator().next().getLong(0));
        // The session and its form are as they were: the right code, sent, shows the request.
        alice.sendFilledIn(alice.get("/oauth/device?user_code=" + started.get("user_code"))).then().statusCode(200)
                .body(containsString("id=\"approve\""));
    }

    /** A public client needs only its id to start one: how many of its codes wait for people is capped (5 in tests). */
    @Test
    void aClientsWaitingDeviceCodesAreCapped() {
        App app = tool("user");
        for (int i = 0; i < 5; i++) {
            start(app, "user");
        }
        given().contentType("application/x-www-form-urlencoded").accept("application/json")
                .formParam("client_id", app.clientId()).formParam("scope", "user").post("/oauth/device_authorization")
                .then().statusCode(429).body("error", equalTo("slow_down")).header("Retry-After", "10");
        start(tool("user"), "user");
        // Once one is answered or over, there is room again.
        pool.preparedQuery("UPDATE device_authorization SET expires_at = now() - interval '1 second' WHERE device_code_hash = "
                + "(SELECT device_code_hash FROM device_authorization WHERE application_id = $1 LIMIT 1)")
                .execute(Tuple.of(app.id())).await().atMost(WAIT);
        start(app, "user");
    }

    @Test
    void theFormsNeedTheirCsrfFields() {
        App app = tool("user");
        Map<String, Object> started = start(app, "user");
        Person alice = new Person();
        Response confirmation = alice.sendFilledIn(alice.signIn("/oauth/device?user_code=" + started.get("user_code")));
        Map<String, String> forged = hiddenFields(confirmation.asString());
        forged.put("action", "approve");
        forged.put("csrf", "forged");
        alice.post(forged).then().statusCode(403);
        poll(app, started.get("device_code")).statusCode(400).body("error", equalTo("authorization_pending"));
        // The sign-in form without its cookie.
        Response login = new Person().get("/oauth/device");
        Map<String, String> form = hiddenFields(login.asString());
        form.put("login", "alice");
        form.put("password", "alice password 1");
        given().redirects().follow(false).contentType("application/x-www-form-urlencoded").formParams(form)
                .post("/oauth/device").then().statusCode(403);
        login.then().header("Content-Security-Policy", containsString("frame-ancestors 'none'"))
                .contentType(startsWith("text/html"));
        assertFalse(login.asString().contains(String.valueOf(started.get("user_code"))));
        assertTrue(login.asString().matches("(?s).*A device.*"), "the sign-in page says who asks");
        login.then().body(matchesPattern("(?s).*<form method=\"post\" action=\"/oauth/device\">.*"));
    }
}
