package org.ziggurat.gateway.pipeline;

import org.ziggurat.gateway.identity.GatewayIdentityTest;
import org.ziggurat.gateway.route.PublicRoutes;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.token.ScopeNames;

import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The API's protected resource metadata (RFC 9728), answered by the gateway: the document at both
 * addresses, and the 401s that point to it. The tests' public base URL is https://api.test.example/api
 * (UpstreamStubs).
 */
@QuarkusTest
class ProtectedResourceMetadataTest {

    static final String API = "https://api.test.example/api";
    /** RFC 9728 §3.1: the well-known name between the host and the identifier's path. */
    static final String METADATA = "https://api.test.example/.well-known/oauth-protected-resource/api";
    static final String CHALLENGE_PARAMETER = "resource_metadata=\"" + METADATA + "\"";

    @Test
    void theDocumentNamesTheApiAndItsAuthorizationServer() {
        JsonPath doc = given().header("Origin", "https://app.example").get("/.well-known/oauth-protected-resource/api").then()
                .statusCode(200).contentType("application/json")
                .header("Cache-Control", matchesPattern("public, max-age=[1-9][0-9]*"))
                .header("Access-Control-Allow-Origin", "*")
                .extract().jsonPath();
        assertEquals(API, doc.getString("resource"));
        assertEquals(List.of(API), doc.getList("authorization_servers"));
        assertEquals(ScopeNames.ALL, doc.getList("scopes_supported"));
        assertEquals(List.of("header"), doc.getList("bearer_methods_supported"));
        assertEquals(List.of("ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512"),
                doc.getList("dpop_signing_alg_values_supported"));
        assertEquals(API + "/docs", doc.getString("resource_documentation"));
        assertNull(doc.get("service"), "answered by the gateway, not a service");
    }

    @Test
    void theApisPathSpaceServesTheSameDocument() {
        String derived = given().get("/.well-known/oauth-protected-resource/api").then().statusCode(200).extract().asString();
        for (String path : List.of("/api/.well-known/oauth-protected-resource", "/api/v1/.well-known/oauth-protected-resource")) {
            given().get(path).then().statusCode(200).contentType("application/json").body(equalTo(derived));
        }
        given().head("/api/.well-known/oauth-protected-resource").then().statusCode(200);
        given().post("/api/.well-known/oauth-protected-resource").then().statusCode(405).header("Allow", "GET, HEAD")
                .contentType("application/problem+json");
        given().header("Origin", "https://app.example").header("Access-Control-Request-Method", "GET")
                .options("/api/.well-known/oauth-protected-resource").then().statusCode(204)
                .header("Access-Control-Allow-Origin", "*");
    }

    @Test
    void theOtherWellKnownDocumentsAreStillAuthServices() {
        given().get("/.well-known/oauth-authorization-server/api").then().statusCode(200)
                .body("service", equalTo(PublicRoutes.AUTH)).body("uri", equalTo("/.well-known/oauth-authorization-server/api"));
        given().get("/api/.well-known/openid-configuration").then().statusCode(200)
                .body("service", equalTo(PublicRoutes.AUTH)).body("uri", equalTo("/.well-known/openid-configuration"));
        given().get("/api/.well-known/oauth-protected-resource-other").then().statusCode(200)
                .body("service", equalTo(PublicRoutes.AUTH));
    }

    @Test
    void everyRefusalOfATokenPointsToTheDocument() {
        given().header("Authorization", "Bearer zat_not_active").get("/api/people/alice").then().statusCode(401)
                .header("WWW-Authenticate", startsWith("Bearer ")).header("WWW-Authenticate", containsString("invalid_token"))
                .header("WWW-Authenticate", containsString(CHALLENGE_PARAMETER));
        given().header("Authorization", "Basic YWxhZGRpbjpvcGVuc2VzYW1l").get("/api/people/alice").then().statusCode(401)
                .header("WWW-Authenticate", containsString(CHALLENGE_PARAMETER));
        // A bearer token sent as DPoP: the DPoP challenge.
        given().header("Authorization", "DPoP " + GatewayIdentityTest.activeToken("user")).header("DPoP", "x")
                .get("/api/people/alice").then().statusCode(401).header("WWW-Authenticate", startsWith("DPoP algs="))
                .header("WWW-Authenticate", containsString(CHALLENGE_PARAMETER));
    }

    /** No token where a service needs one: its own 401, its challenge completed on the way out. */
    @Test
    void aServicesOwn401PointsToTheDocument() {
        given().get("/api/people/needs-token").then().statusCode(401)
                .header("WWW-Authenticate", equalTo("Bearer " + CHALLENGE_PARAMETER));
        // auth-service's OAuth endpoints speak for themselves (client authentication, not the API's tokens).
        given().get("/api/oauth/needs-token").then().statusCode(401).header("WWW-Authenticate", equalTo("Bearer"));
    }
}
