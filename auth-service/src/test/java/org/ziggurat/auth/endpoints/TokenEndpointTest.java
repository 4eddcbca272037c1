package org.ziggurat.auth.endpoints;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.DirectoryDouble;
import org.ziggurat.auth.OAuthTestSupport.App;

import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.OAuthTestSupport.aliceTokens;
import static org.ziggurat.auth.OAuthTestSupport.createApp;
import static org.ziggurat.auth.OAuthTestSupport.introspect;
import static org.ziggurat.auth.OAuthTestSupport.post;

@QuarkusTest
class TokenEndpointTest {

    @jakarta.inject.Inject
    io.vertx.mutiny.sqlclient.Pool pool;

    @jakarta.inject.Inject
    org.ziggurat.auth.crypto.TokenCrypto crypto;

    @Test
    void passwordGrantWithClientCredentials() {
        App app = createApp(true, "public user write");
        post("/oauth/token", app, "grant_type", "password", "username", "alice", "password", "alice password 1",
                "scope", "user write").statusCode(200)
                .header("Cache-Control", "no-store")
                .body("access_token", startsWith("zat_"))
                .body("refresh_token", startsWith("zrt_"))
                .body("token_type", equalTo("bearer"))
                .body("expires_in", equalTo(7200))
                .body("scope", equalTo("user write"))
                .body("created_at", notNullValue());
    }

    @Test
    void passwordGrantWithoutClientHasNoApplication() {
        String token = post("/oauth/token", null, "grant_type", "password", "username", "alice@example.org",
                "password", "alice password 1").statusCode(200).body("scope", equalTo("public"))
                .extract().path("access_token");
        given().header("Authorization", "token " + token).get("/oauth/token/info").then().statusCode(200)
                .body("resource_owner_id", equalTo(101))
                .body("scopes", equalTo(java.util.List.of("public")))
                .body("application.uid", nullValue())
                .body("application", hasKey("uid"))
                .body("expires_in_seconds", org.hamcrest.Matchers.greaterThan(7000))
                .body("created_at", notNullValue());
    }

    @Test
    void passwordGrantRefusals() {
        App app = createApp(true, "public user");
        post("/oauth/token", app, "grant_type", "password", "username", "alice", "password", "wrong password")
                .statusCode(400).header("Cache-Control", "no-store")
                .body("error", equalTo("invalid_grant")).body("error_description", notNullValue());
        post("/oauth/token", app, "grant_type", "password", "username", "nobody", "password", "whatever it is")
                .statusCode(400).body("error", equalTo("invalid_grant"));
        post("/oauth/token", app, "grant_type", "password", "username", DirectoryDouble.THROTTLED, "password", "x")
                .statusCode(400).body("error", equalTo("invalid_grant")).header("Retry-After", "30");
        // The directory cannot check passwords now: a 503 to retry, not a 500 and not a refused grant.
        post("/oauth/token", app, "grant_type", "password", "username", DirectoryDouble.AWAY, "password", "x")
                .statusCode(503).header("Retry-After", "2").body("status", equalTo(503));
        post("/oauth/token", app, "grant_type", "password", "username", "alice", "password", "alice password 1",
                "scope", "admin").statusCode(400).body("error", equalTo("invalid_scope"));
        post("/oauth/token", app, "grant_type", "password", "username", "alice", "password", "alice password 1",
                "scope", "everything").statusCode(400).body("error", equalTo("invalid_scope"));
        post("/oauth/token", app, "grant_type", "password", "username", "alice").statusCode(400)
                .body("error", equalTo("invalid_request"));
    }

    @Test
    void thePasswordGrantIsOptInPerApplication() {
        // RFC 9700 §2.4: a new application does not take it unless its owner asks.
        var created = org.ziggurat.auth.OAuthTestSupport.asPerson(org.ziggurat.auth.OAuthTestSupport.OWNER_ID, "owner", "admin")
                .contentType("application/json").body(Map.of("name", "New tool", "scopes", "public",
                        "redirect_uris", java.util.List.of("https://app.example.org/callback")))
                .post("/applications").then().statusCode(201).body("password_grant", equalTo(false)).extract();
        App app = new App(((Number) created.path("id")).longValue(), created.path("client_id"), created.path("client_secret"));
        post("/oauth/token", app, "grant_type", "password", "username", "alice", "password", "alice password 1")
                .statusCode(400).body("error", equalTo("unauthorized_client"));
        // The spec's client-less form, which the platform's own tools use, stays.
        post("/oauth/token", null, "grant_type", "password", "username", "alice", "password", "alice password 1")
                .statusCode(200);
        patchPasswordGrant(app, true);
        post("/oauth/token", app, "grant_type", "password", "username", "alice", "password", "alice password 1")
                .statusCode(200);
        patchPasswordGrant(app, false);
        post("/oauth/token", app, "grant_type", "password", "username", "alice", "password", "alice password 1")
                .statusCode(400).body("error", equalTo("unauthorized_client"));
    }

    static void patchPasswordGrant(App app, boolean on) {
        org.ziggurat.auth.OAuthTestSupport.asPerson(org.ziggurat.auth.OAuthTestSupport.OWNER_ID, "owner", "admin")
                .contentType("application/json").body(Map.of("password_grant", on))
                .patch("/applications/" + app.id()).then().statusCode(200).body("password_grant", equalTo(on));
    }

    @Test
    void clientCredentials() {
        App app = createApp(true, "public write");
        String token = post("/oauth/token", app, "grant_type", "client_credentials", "scope", "write").statusCode(200)
                .body("refresh_token", nullValue()).body("scope", equalTo("write")).extract().path("access_token");
        introspect(token).body("active", equalTo(true)).body("client_id", equalTo(app.clientId()))
                .body("sub", equalTo(app.clientId())).body("$", not(hasKey("username")));
        App publicApp = createApp(false, "public");
        post("/oauth/token", publicApp, "grant_type", "client_credentials").statusCode(400)
                .body("error", equalTo("unauthorized_client"));
    }

    @Test
    void clientAuthenticationFailures() {
        App app = createApp(true, "public");
        post("/oauth/token", new App(app.id(), app.clientId(), "zcs_wrong"), "grant_type", "client_credentials")
                .statusCode(401).header("WWW-Authenticate", startsWith("Basic"))
                .header("Cache-Control", "no-store").body("error", equalTo("invalid_client"));
        post("/oauth/token", new App(0, "NoSuchClient00000000", "x"), "grant_type", "client_credentials")
                .statusCode(401).body("error", equalTo("invalid_client"));
        post("/oauth/token", null, "grant_type", "client_credentials").statusCode(401).body("error", equalTo("invalid_client"));
        // Credentials in the form work too; both ways at once do not.
        post("/oauth/token", null, "grant_type", "client_credentials", "client_id", app.clientId(),
                "client_secret", app.secret()).statusCode(200);
        post("/oauth/token", app, "grant_type", "client_credentials", "client_secret", app.secret())
                .statusCode(400).body("error", equalTo("invalid_request"));
    }

    @Test
    void malformedRequestsAreOAuthErrors() {
        App app = createApp(true, "public");
        post("/oauth/token", app, "grant_type", "implicit").statusCode(400).body("error", equalTo("unsupported_grant_type"));
        post("/oauth/token", app).statusCode(400).body("error", equalTo("invalid_request"));
        given().contentType("application/json").body("{\"grant_type\":\"password\"}").post("/oauth/token")
                .then().statusCode(400).body("error", equalTo("invalid_request"));
        given().contentType("application/x-www-form-urlencoded").body("grant_type=password&grant_type=client_credentials")
                .post("/oauth/token").then().statusCode(400).body("error", equalTo("invalid_request"))
                .body("error_description", containsString("repeated"));
        given().contentType("application/x-www-form-urlencoded").body("grant_type=%zz").post("/oauth/token")
                .then().statusCode(400).body("error", equalTo("invalid_request"));
    }

    @Test
    void refreshRotatesAndReuseRevokesTheFamily() {
        App app = createApp(true, "public user write");
        Map<String, Object> first = aliceTokens(app, "user write");
        String firstRefresh = (String) first.get("refresh_token");
        Map<String, Object> second = post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token", firstRefresh)
                .statusCode(200).body("scope", equalTo("user write")).extract().jsonPath().getMap("$");
        assertNotEquals(firstRefresh, second.get("refresh_token"));
        introspect((String) second.get("access_token")).body("active", equalTo(true));
        // Narrowing is allowed; widening is not.
        post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token", (String) second.get("refresh_token"),
                "scope", "admin").statusCode(400).body("error", equalTo("invalid_scope"));
        // Another client cannot use alice's refresh token.
        App other = createApp(true, "public user write");
        post("/oauth/token", other, "grant_type", "refresh_token", "refresh_token", (String) second.get("refresh_token"))
                .statusCode(400).body("error", equalTo("invalid_grant"));
        // The rotated token presented again: the whole authorization goes.
        post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token", firstRefresh)
                .statusCode(400).body("error", equalTo("invalid_grant"));
        introspect((String) second.get("access_token")).body("active", equalTo(false));
        introspect((String) first.get("access_token")).body("active", equalTo(false));
        post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token", (String) second.get("refresh_token"))
                .statusCode(400).body("error", equalTo("invalid_grant"));
    }

    /**
     * ASVS 5.0 V10.4.8: rotation does not slide an authorization for ever. It ends at a fixed time
     * from its grant (90 days, or the application's shorter limit); no refresh token outlives it,
     * and introspection says when it ends.
     */
    @Test
    void anAuthorizationEndsAtAFixedTimeFromItsGrant() {
        App app = createApp(true, "public user write");
        long granted = System.currentTimeMillis() / 1000;
        Map<String, Object> platforms = aliceTokens(app, "user");
        long ninetyDays = 90L * 24 * 3600;
        long platformEnd = introspect((String) platforms.get("access_token")).statusCode(200)
                .extract().jsonPath().getLong("authorization_exp");
        assertTrue(Math.abs(platformEnd - (granted + ninetyDays)) < 30, "90 days from the grant: " + platformEnd);

        org.ziggurat.auth.OAuthTestSupport.asPerson(org.ziggurat.auth.OAuthTestSupport.OWNER_ID, "owner", "admin")
                .contentType("application/json").body(Map.of("refresh_token_absolute_lifetime", 3600))
                .patch("/applications/" + app.id()).then().statusCode(200).body("refresh_token_absolute_lifetime", equalTo(3600));
        Map<String, Object> first = aliceTokens(app, "user");
        long end = introspect((String) first.get("refresh_token")).statusCode(200).body("active", equalTo(true))
                .extract().jsonPath().getLong("authorization_exp");
        assertTrue(Math.abs(end - (System.currentTimeMillis() / 1000 + 3600)) < 30, "the application's hour: " + end);
        long firstRefreshExp = introspect((String) first.get("refresh_token")).extract().jsonPath().getLong("exp");
        assertTrue(firstRefreshExp <= end, "the refresh token outlives its authorization: " + firstRefreshExp + " > " + end);

        // Rotations keep the authorization's end: it does not slide.
        String refresh = (String) first.get("refresh_token");
        for (int i = 0; i < 3; i++) {
            Map<String, Object> next = post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token", refresh)
                    .statusCode(200).extract().jsonPath().getMap("$");
            refresh = (String) next.get("refresh_token");
            introspect((String) next.get("access_token")).body("authorization_exp", equalTo((int) end));
            introspect(refresh).body("authorization_exp", equalTo((int) end));
            assertTrue(introspect(refresh).extract().jsonPath().getLong("exp") <= end);
        }
        // Once it is over, its refresh token refreshes nothing.
        pool.preparedQuery("UPDATE token SET authorization_expires_at = now() - interval '1 second', "
                + "expires_at = least(expires_at, now() - interval '1 second') WHERE family = "
                + "(SELECT family FROM token WHERE hash = $1)").execute(io.vertx.mutiny.sqlclient.Tuple.of(
                        io.vertx.core.buffer.Buffer.buffer(crypto.hash(refresh)))).await().atMost(java.time.Duration.ofSeconds(30));
        post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token", refresh).statusCode(400)
                .body("error", equalTo("invalid_grant"));

        // Longer than the platform's, or shorter than a minute: refused.
        for (Object bad : java.util.List.of(59, ninetyDays + 1, "an hour", 1.5)) {
            org.ziggurat.auth.OAuthTestSupport.asPerson(org.ziggurat.auth.OAuthTestSupport.OWNER_ID, "owner", "admin")
                    .contentType("application/json").body(Map.of("refresh_token_absolute_lifetime", bad))
                    .patch("/applications/" + app.id()).then().statusCode(422);
        }
    }

    @Test
    void aRefusedRefreshLeavesTheTokenUnused() {
        App app = createApp(true, "public user write");
        String refresh = (String) aliceTokens(app, "user write").get("refresh_token");
        post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token", refresh, "scope", "user admin")
                .statusCode(400).body("error", equalTo("invalid_scope"));
        App other = createApp(true, "public user write");
        post("/oauth/token", other, "grant_type", "refresh_token", "refresh_token", refresh)
                .statusCode(400).body("error", equalTo("invalid_grant"))
                .body("error_description", equalTo("The refresh token was issued to another client."));
        // Neither refusal used it up: the owner narrows with it, and the new pair has the narrowed scopes.
        Map<String, Object> narrowed = post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token", refresh,
                "scope", "user public").statusCode(200).body("scope", equalTo("public user"))
                .extract().jsonPath().getMap("$");
        introspect((String) narrowed.get("access_token")).body("active", equalTo(true)).body("username", equalTo("alice"));
        // Narrowing narrowed that access token only: the new refresh token keeps the grant's
        // scopes (RFC 6749 §6), so a refresh without scope gets them all back.
        post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token", (String) narrowed.get("refresh_token"))
                .statusCode(200).body("scope", equalTo("user write"));
        post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token", "zrt_never_issued")
                .statusCode(400).body("error", equalTo("invalid_grant"))
                .body("error_description", equalTo("The refresh token is not valid."));
    }

    /**
     * The password grant without a client issues a refresh token: it is refreshed without a
     * client too (it could never be refreshed before), and rotates like any other.
     */
    @Test
    void aRefreshTokenWithoutAClientIsRefreshedWithoutOne() {
        Map<String, Object> first = post("/oauth/token", null, "grant_type", "password", "username", "alice",
                "password", "alice password 1", "scope", "user write").statusCode(200).extract().jsonPath().getMap("$");
        String firstRefresh = (String) first.get("refresh_token");
        // Some client cannot take it over.
        App app = createApp(true, "public user write");
        post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token", firstRefresh)
                .statusCode(400).body("error", equalTo("invalid_grant"));
        Map<String, Object> second = post("/oauth/token", null, "grant_type", "refresh_token", "refresh_token", firstRefresh,
                "scope", "user").statusCode(200).body("scope", equalTo("user")).extract().jsonPath().getMap("$");
        introspect((String) second.get("access_token")).body("active", equalTo(true)).body("username", equalTo("alice"))
                .body("scope", equalTo("user"));
        post("/oauth/token", null, "grant_type", "refresh_token", "refresh_token", (String) second.get("refresh_token"))
                .statusCode(200).body("scope", equalTo("user write"));
        // Reuse of the rotated one revokes the family, as with a client.
        post("/oauth/token", null, "grant_type", "refresh_token", "refresh_token", firstRefresh)
                .statusCode(400).body("error", equalTo("invalid_grant"));
        introspect((String) second.get("access_token")).body("active", equalTo(false));
        // A client's refresh token needs its client.
        String clients = (String) aliceTokens(app, "user").get("refresh_token");
        post("/oauth/token", null, "grant_type", "refresh_token", "refresh_token", clients)
                .statusCode(401).body("error", equalTo("invalid_client"));
        post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token", clients).statusCode(200);
    }

    /** A client id that is no plain id (an emoji, control characters, very long) is invalid_client, never a 500. */
    @Test
    void oddClientIdsAreInvalidClients() {
        for (String clientId : new String[] {"\uD83D\uDE00", "a\uD83D\uDE00b", "\u0000", "x".repeat(300), "\u00e9t\u00e9"}) {
            String form = post("/oauth/token", null, "grant_type", "client_credentials", "client_id", clientId,
                    "client_secret", "s").extract().asString();
            org.junit.jupiter.api.Assertions.assertTrue(form.contains("\"invalid_client\""), clientId.length() + ": " + form);
            String basic = post("/oauth/token", new App(0, clientId, "s"), "grant_type", "client_credentials")
                    .extract().asString();
            org.junit.jupiter.api.Assertions.assertTrue(basic.contains("\"invalid_client\""), clientId.length() + ": " + basic);
            post("/oauth/introspect", null, "token", "zat_x", "client_id", clientId, "client_secret", "s")
                    .statusCode(401).body("error", equalTo("invalid_client"));
            post("/oauth/revoke", null, "token", "zat_x", "client_id", clientId, "client_secret", "s")
                    .statusCode(401).body("error", equalTo("invalid_client"));
        }
    }

    @Test
    void responseFormats() {
        App app = createApp(true, "public");
        String xml = given().auth().preemptive().basic(app.clientId(), app.secret())
                .contentType("application/x-www-form-urlencoded").accept("application/xml")
                .body("grant_type=client_credentials").post("/oauth/token")
                .then().statusCode(200).contentType("application/xml").extract().asString();
        org.junit.jupiter.api.Assertions.assertTrue(xml.contains("<OAuth>") && xml.contains("<token_type>bearer</token_type>")
                && xml.contains("<scope>public</scope>") && xml.contains("<access_token>zat_"), xml);
        // Without an Accept of either kind, grants other than the code exchange answer JSON.
        given().auth().preemptive().basic(app.clientId(), app.secret())
                .contentType("application/x-www-form-urlencoded").body("grant_type=client_credentials")
                .post("/oauth/token").then().statusCode(200).contentType("application/json");
    }
}
