package org.ziggurat.auth.clients;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ziggurat.auth.OAuthTestSupport.asPerson;
import static org.ziggurat.auth.OAuthTestSupport.post;

/** Dynamic client registration (RFC 7591) and its management (RFC 7592). */
@QuarkusTest
class ClientRegistrationTest {

    static final String INITIAL_ACCESS_TOKEN = "test-initial-access-token-0123456789abcdef";

    static String aliceToken(String scope) {
        return post("/oauth/token", null, "grant_type", "password", "username", "alice", "password", "alice password 1",
                "scope", scope).statusCode(200).extract().path("access_token");
    }

    static Map<String, Object> notebook() {
        Map<String, Object> metadata = new HashMap<>();
        metadata.put("client_name", "Notebook hub");
        metadata.put("redirect_uris", List.of("https://hub.example.org/oauth_callback"));
        metadata.put("grant_types", List.of("authorization_code", "refresh_token"));
        metadata.put("scope", "openid profile");
        metadata.put("client_uri", "https://hub.example.org/");
        metadata.put("contacts", List.of("ops@hub.example.org"));
        return metadata;
    }

    static RequestSpecification bearer(String token) {
        return given().header("Authorization", "Bearer " + token).contentType("application/json");
    }

    /**
     * A client that registers itself never takes the platform's name, even with an operator's token:
     * that token may be one issued to any application that asked the operator for admin. An
     * operator names an application after the platform through /applications with their own token.
     */
    @Test
    void aRegistrationNeverTakesThePlatformsName() {
        String operator = post("/oauth/token", null, "grant_type", "password", "username", "opal", "password",
                "opal password 0", "otp", org.ziggurat.auth.DirectoryDouble.RECOVERY_CODES.get(0), "scope", "admin").statusCode(200).extract().path("access_token");
        Map<String, Object> named = notebook();
        named.put("client_name", "Ziggurat CLI");
        bearer(operator).body(named).post("/oauth/register").then().statusCode(400)
                .body("error", equalTo("invalid_client_metadata"));
        Map<String, Object> registered = bearer(operator).body(notebook()).post("/oauth/register").then().statusCode(201)
                .extract().as(Map.class);
        Map<String, Object> renamed = new HashMap<>(notebook());
        renamed.put("client_id", registered.get("client_id"));
        renamed.put("client_name", "Ziggurat notes");
        bearer((String) registered.get("registration_access_token")).body(renamed)
                .put("/oauth/register/" + registered.get("client_id")).then().statusCode(400)
                .body("error", equalTo("invalid_client_metadata"));
    }

    @Test
    void aToolRegistersItselfAndManagesItsRegistration() {
        String admin = aliceToken("admin");
        Map<String, Object> registered = bearer(admin).body(notebook()).post("/oauth/register").then().statusCode(201)
                .header("Cache-Control", "no-store")
                .header("Location", startsWith("http://localhost:8080/api/oauth/register/"))
                .body("client_secret", startsWith("zcs_")).body("client_secret_expires_at", equalTo(0))
                .body("registration_access_token", startsWith("zrg_"))
                .body("token_endpoint_auth_method", equalTo("client_secret_basic"))
                .body("grant_types", equalTo(List.of("authorization_code", "refresh_token")))
                .body("response_types", equalTo(List.of("code")))
                .body("scope", equalTo("openid profile")).body("client_uri", equalTo("https://hub.example.org/"))
                .body("contacts", equalTo(List.of("ops@hub.example.org")))
                .extract().jsonPath().getMap("$");
        String clientId = (String) registered.get("client_id");
        String registrationToken = (String) registered.get("registration_access_token");
        // An application of the token's person, like one made through /applications.
        asPerson(101, "alice", "admin").get("/applications").then().statusCode(200)
                .body("client_id", hasItem(clientId));

        bearer(registrationToken).get("/oauth/register/" + clientId).then().statusCode(200)
                .body("client_name", equalTo("Notebook hub")).body("client_secret", nullValue())
                .body("registration_access_token", nullValue())
                .body("registration_client_uri", equalTo("http://localhost:8080/api/oauth/register/" + clientId));

        Map<String, Object> changed = new HashMap<>(notebook());
        changed.put("client_id", clientId);
        changed.put("client_name", "Notebook hub (staging)");
        changed.put("redirect_uris", List.of("https://staging.hub.example.org/oauth_callback"));
        bearer(registrationToken).body(changed).put("/oauth/register/" + clientId).then().statusCode(200)
                .body("client_name", equalTo("Notebook hub (staging)"))
                .body("redirect_uris", equalTo(List.of("https://staging.hub.example.org/oauth_callback")));
        // The kind of client does not change; another client's id is refused.
        Map<String, Object> nowPublic = new HashMap<>(changed);
        nowPublic.put("token_endpoint_auth_method", "none");
        bearer(registrationToken).body(nowPublic).put("/oauth/register/" + clientId).then().statusCode(400)
                .body("error", equalTo("invalid_client_metadata"));
        Map<String, Object> otherId = new HashMap<>(changed);
        otherId.put("client_id", "SomeoneElse000000000");
        bearer(registrationToken).body(otherId).put("/oauth/register/" + clientId).then().statusCode(400);

        // The registration token manages this registration and nothing else; other tokens manage nothing.
        bearer(admin).get("/oauth/register/" + clientId).then().statusCode(401)
                .header("WWW-Authenticate", containsString("invalid_token"));
        bearer(registrationToken).get("/oauth/token/info").then().statusCode(401);
        bearer(registrationToken).get("/oauth/register/NoSuchClient00000000").then().statusCode(401);

        bearer(registrationToken).delete("/oauth/register/" + clientId).then().statusCode(204);
        bearer(registrationToken).get("/oauth/register/" + clientId).then().statusCode(401);
        asPerson(101, "alice", "admin").get("/applications").then().body("client_id", not(hasItem(clientId)));
    }

    @Test
    void aClientUsesOnlyTheGrantsItRegistered() {
        Map<String, Object> metadata = new HashMap<>();
        metadata.put("client_name", "Batch job");
        metadata.put("grant_types", List.of("client_credentials"));
        metadata.put("scope", "user");
        Map<String, Object> job = bearer(aliceToken("admin")).body(metadata).post("/oauth/register").then().statusCode(201)
                .body("response_types", equalTo(List.of())).extract().jsonPath().getMap("$");
        var app = new org.ziggurat.auth.OAuthTestSupport.App(0, (String) job.get("client_id"), (String) job.get("client_secret"));
        post("/oauth/token", app, "grant_type", "client_credentials", "scope", "user").statusCode(200);
        post("/oauth/token", app, "grant_type", "password", "username", "alice", "password", "alice password 1")
                .statusCode(400).body("error", equalTo("unauthorized_client"));
        post("/oauth/device_authorization", app, "scope", "user").statusCode(400).body("error", equalTo("unauthorized_client"));
    }

    @Test
    void aPublicToolForTheDeviceFlow() {
        Map<String, Object> metadata = new HashMap<>();
        metadata.put("client_name", "Lab CLI");
        metadata.put("token_endpoint_auth_method", "none");
        metadata.put("grant_types", List.of(org.ziggurat.auth.oauth.GrantTypes.DEVICE_CODE, "refresh_token"));
        metadata.put("scope", "user");
        Map<String, Object> cli = bearer(aliceToken("admin")).body(metadata).post("/oauth/register").then().statusCode(201)
                .body("client_secret", nullValue()).body("token_endpoint_auth_method", equalTo("none"))
                .extract().jsonPath().getMap("$");
        given().contentType("application/x-www-form-urlencoded").formParam("client_id", cli.get("client_id"))
                .formParam("scope", "user").post("/oauth/device_authorization").then().statusCode(200)
                .body("user_code", notNullValue());
    }

    /**
     * oidc-agent's registration, as it sends it: a confidential client (no token_endpoint_auth_method)
     * with loopback addresses and its private-use scheme. Registered without the private-use URI,
     * which a confidential client may not have; the answer says so by listing the others.
     */
    @Test
    void aConfidentialNativeToolIsRegisteredWithoutItsPrivateUseScheme() {
        Map<String, Object> agent = new HashMap<>();
        agent.put("application_type", "web");
        agent.put("client_name", "oidc-agent:lab-laptop");
        agent.put("response_types", List.of());
        agent.put("grant_types", List.of("refresh_token", org.ziggurat.auth.oauth.GrantTypes.DEVICE_CODE));
        agent.put("scope", "openid profile offline_access");
        agent.put("redirect_uris", List.of("http://localhost:4242", "http://localhost:33657", "http://localhost:8080",
                "edu.kit.data.oidc-agent:/redirect"));
        bearer(aliceToken("admin")).body(agent).post("/oauth/register").then().statusCode(201)
                .body("client_secret", startsWith("zcs_"))
                .body("scope", equalTo("openid profile offline_access"))
                .body("redirect_uris", equalTo(List.of("http://localhost:4242", "http://localhost:33657",
                        "http://localhost:8080")));
        // With nothing else to return to and no code flow: nowhere, like a tool that sent none.
        agent.put("redirect_uris", List.of("edu.kit.data.oidc-agent:/redirect"));
        bearer(aliceToken("admin")).body(agent).post("/oauth/register").then().statusCode(201)
                .body("redirect_uris", equalTo(List.of(org.ziggurat.auth.oauth.RedirectUris.OUT_OF_BAND)));
        // With the code flow, a confidential client that could return nowhere else is refused, with the reason.
        agent.put("grant_types", List.of("authorization_code", "refresh_token"));
        agent.put("response_types", List.of("code"));
        bearer(aliceToken("admin")).body(agent).post("/oauth/register").then().statusCode(400)
                .body("error", equalTo("invalid_redirect_uri"))
                .body("error_description", containsString("private-use URI scheme is for public clients"));
        // A public client keeps it.
        agent.put("token_endpoint_auth_method", "none");
        bearer(aliceToken("admin")).body(agent).post("/oauth/register").then().statusCode(201)
                .body("redirect_uris", equalTo(List.of("edu.kit.data.oidc-agent:/redirect")));
    }

    @Test
    void theInitialAccessTokenRegistersForTheConfiguredOwner() {
        String clientId = bearer(INITIAL_ACCESS_TOKEN).body(notebook()).post("/oauth/register").then().statusCode(201)
                .extract().path("client_id");
        asPerson(900, "owner", "admin").get("/applications").then().statusCode(200).body("client_id", hasItem(clientId));
    }

    @Test
    void registrationsAreValidatedAsApplicationsAre() {
        String admin = aliceToken("admin");
        Map<String, Object> badRedirect = new HashMap<>(notebook());
        badRedirect.put("redirect_uris", List.of("javascript:alert(1)"));
        bearer(admin).body(badRedirect).post("/oauth/register").then().statusCode(400)
                .body("error", equalTo("invalid_redirect_uri"));
        Map<String, Object> noRedirect = new HashMap<>(notebook());
        noRedirect.remove("redirect_uris");
        bearer(admin).body(noRedirect).post("/oauth/register").then().statusCode(400)
                .body("error", equalTo("invalid_redirect_uri"));
        for (Map.Entry<String, Object> bad : Map.<String, Object>of("sector_identifier_uri", "https://hub.example.org/sectors",
                "scope", "root", "grant_types", List.of("implicit"), "response_types", List.of("token"),
                "token_endpoint_auth_method", "private_key_jwt", "id_token_signed_response_alg", "none",
                "client_name", 12).entrySet()) {
            Map<String, Object> metadata = new HashMap<>(notebook());
            metadata.put(bad.getKey(), bad.getValue());
            bearer(admin).body(metadata).post("/oauth/register").then().statusCode(400)
                    .body("error", equalTo("invalid_client_metadata"));
        }
        bearer(admin).body("[]").post("/oauth/register").then().statusCode(400).body("error", equalTo("invalid_client_metadata"));
        // At most 16 KiB, as the OAuth endpoints' forms: metadata that is valid but padded past it is refused.
        Map<String, Object> padded = new HashMap<>(notebook());
        padded.put("software_id", "x".repeat(1000));
        padded.put("x_padding", "x".repeat(17 * 1024));
        bearer(admin).body(padded).post("/oauth/register").then().statusCode(400)
                .body("error", equalTo("invalid_client_metadata")).body("error_description", containsString("KiB"));
        // Who may register.
        given().contentType("application/json").body(notebook()).post("/oauth/register").then().statusCode(401);
        bearer(aliceToken("user")).body(notebook()).post("/oauth/register").then().statusCode(403)
                .body("error", equalTo("insufficient_scope"));
        bearer("zat_not-a-token").body(notebook()).post("/oauth/register").then().statusCode(401);
        assertEquals(401, bearer(INITIAL_ACCESS_TOKEN + "x").body(notebook()).post("/oauth/register").statusCode());
    }
}
