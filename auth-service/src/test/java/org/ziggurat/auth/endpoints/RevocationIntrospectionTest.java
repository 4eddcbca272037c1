package org.ziggurat.auth.endpoints;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport;
import org.ziggurat.auth.OAuthTestSupport.App;

import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;
import static org.ziggurat.auth.OAuthTestSupport.aliceTokens;
import static org.ziggurat.auth.OAuthTestSupport.createApp;
import static org.ziggurat.auth.OAuthTestSupport.introspect;
import static org.ziggurat.auth.OAuthTestSupport.post;

@QuarkusTest
class RevocationIntrospectionTest {

    @Test
    void introspectionAnswersRfc7662() {
        App app = createApp(true, "public user");
        String token = (String) aliceTokens(app, "user").get("access_token");
        introspect(token).statusCode(200).header("Cache-Control", "no-store")
                .body("active", equalTo(true)).body("scope", equalTo("user")).body("client_id", equalTo(app.clientId()))
                .body("username", equalTo("alice")).body("sub", equalTo("101")).body("token_type", equalTo("bearer"))
                .body("exp", notNullValue()).body("iat", notNullValue()).body("iss", equalTo("http://localhost:8080/api"));
        introspect("zat_unknown").statusCode(200).body("active", equalTo(false));
        // A client may ask about its own tokens only; the gateway about any.
        App other = createApp(true, "public user");
        post("/oauth/introspect", other, "token", token).statusCode(200).body("active", equalTo(false));
        post("/oauth/introspect", app, "token", token).statusCode(200).body("active", equalTo(true));
        // Public clients and strangers may not introspect.
        App publicApp = createApp(false, "public");
        post("/oauth/introspect", publicApp, "token", token).statusCode(401).body("error", equalTo("invalid_client"));
        post("/oauth/introspect", null, "token", token).statusCode(401);
        given().auth().preemptive().basic(OAuthTestSupport.GATEWAY_ID, OAuthTestSupport.GATEWAY_SECRET)
                .contentType("application/x-www-form-urlencoded").body("token=a&token=b").post("/oauth/introspect")
                .then().statusCode(400).body("error", equalTo("invalid_request"));
        post("/oauth/introspect", new App(0, OAuthTestSupport.GATEWAY_ID, OAuthTestSupport.GATEWAY_SECRET),
                "token", token, "token_type_hint", "bogus").statusCode(400);
    }

    @Test
    void clientsRevokeTheirOwnTokens() {
        App app = createApp(true, "public user");
        Map<String, Object> tokens = aliceTokens(app, "user");
        String access = (String) tokens.get("access_token");
        App other = createApp(true, "public user");
        // Another client's revocation answers 200 {} and changes nothing.
        post("/oauth/revoke", other, "token", access).statusCode(200).body("size()", equalTo(0));
        introspect(access).body("active", equalTo(true));
        post("/oauth/revoke", app, "token", access).statusCode(200).body("size()", equalTo(0));
        introspect(access).body("active", equalTo(false));
        // Again, and unknown tokens: still 200 {}.
        post("/oauth/revoke", app, "token", access).statusCode(200);
        post("/oauth/revoke", app, "token", "zat_never_issued").statusCode(200);
        // Revoking the refresh token ends the authorization it belongs to.
        Map<String, Object> more = aliceTokens(app, "user");
        post("/oauth/revoke", app, "token", (String) more.get("refresh_token")).statusCode(200);
        introspect((String) more.get("access_token")).body("active", equalTo(false));
        post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token", (String) more.get("refresh_token"))
                .statusCode(400).body("error", equalTo("invalid_grant"));
        post("/oauth/revoke", new App(0, app.clientId(), "zcs_wrong"), "token", access).statusCode(401);
        post("/oauth/revoke", null, "token", access).statusCode(401).body("error", equalTo("invalid_client"));
    }

    @Test
    void aBearerTokenRevokesItself() {
        App app = createApp(true, "public user");
        String access = (String) aliceTokens(app, "user").get("access_token");
        given().header("Authorization", "Bearer " + access).contentType("application/x-www-form-urlencoded")
                .body("token=" + access).post("/oauth/revoke").then().statusCode(200);
        introspect(access).body("active", equalTo(false));
        given().header("Authorization", "Bearer " + access).get("/oauth/token/info").then().statusCode(401)
                .body("error", equalTo("invalid_request"));
    }

    @Test
    void tokenInfoNeedsAValidToken() {
        given().get("/oauth/token/info").then().statusCode(401).body("error", equalTo("invalid_request"));
        given().header("Authorization", "Bearer zat_nothing").get("/oauth/token/info").then().statusCode(401)
                .body("error", equalTo("invalid_request"));
        App app = createApp(true, "public user");
        String access = (String) aliceTokens(app, "user").get("access_token");
        given().header("Authorization", "Bearer " + access).get("/oauth/token/info").then().statusCode(200)
                .body("application.uid", equalTo(app.clientId())).body("scopes", hasItem("user"));
    }

    @Test
    void metadataDescribesTheServer() {
        given().get("/.well-known/oauth-authorization-server").then().statusCode(200)
                .body("issuer", equalTo("http://localhost:8080/api"))
                .body("token_endpoint", equalTo("http://localhost:8080/api/oauth/token"))
                .body("authorization_endpoint", equalTo("http://localhost:8080/api/oauth/authorize"))
                .body("code_challenge_methods_supported", equalTo(java.util.List.of("S256")))
                .body("grant_types_supported", hasItem("refresh_token"));
        // RFC 8414 §3, for an issuer with a path: the well-known segment before the path (oauth4webapi looks there).
        given().get("/.well-known/oauth-authorization-server/api").then().statusCode(200)
                .body("issuer", equalTo("http://localhost:8080/api"));
        given().get("/.well-known/oauth-authorization-server/other").then().statusCode(404);
        // Signed introspection answers are RS256 only: announced so.
        given().get("/.well-known/oauth-authorization-server").then()
                .body("introspection_signing_alg_values_supported", equalTo(java.util.List.of("RS256")));
    }
}
