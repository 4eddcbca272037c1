package org.ziggurat.auth.clients;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport.App;

import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.ziggurat.auth.OAuthTestSupport.OWNER_ID;
import static org.ziggurat.auth.OAuthTestSupport.aliceTokens;
import static org.ziggurat.auth.OAuthTestSupport.asPerson;
import static org.ziggurat.auth.OAuthTestSupport.createApp;
import static org.ziggurat.auth.OAuthTestSupport.introspect;
import static org.ziggurat.auth.OAuthTestSupport.post;

@QuarkusTest
class ApplicationsTest {

    @Test
    void ownersCreateAndReadTheirApplications() {
        var created = asPerson(OWNER_ID, "owner", "admin").contentType("application/json")
                .body(Map.of("name", "Notebook", "redirect_uris", List.of("https://nb.example.org/cb", "http://127.0.0.1:8765/cb",
                        "urn:ietf:wg:oauth:2.0:oob"), "scopes", "public user write", "confidential", true))
                .post("/applications").then().statusCode(201)
                .header("Location", matchesPattern(".*/applications/\\d+"))
                .header("Cache-Control", "no-store")
                .body("client_id", matchesPattern("[A-Za-z0-9]{20}"))
                .body("client_secret", startsWith("zcs_"))
                .body("scopes", equalTo("public user write"))
                .body("confidential", equalTo(true))
                .body("redirect_uris", hasItem("urn:ietf:wg:oauth:2.0:oob"))
                .body("url", matchesPattern("http.*/applications/\\d+"))
                .body("created_at", matchesPattern(".*\\.\\d{3}Z")).extract();
        int id = created.path("id");
        asPerson(OWNER_ID, "owner", "admin").get("/applications/" + id).then().statusCode(200)
                .body("name", equalTo("Notebook")).body("$", not(hasKey("client_secret")));
        asPerson(OWNER_ID, "owner", "admin").get("/applications").then().statusCode(200).body("id", hasItem(id));
        // Somebody else's application does not exist for them.
        asPerson(7, "mallory", "admin").get("/applications/" + id).then().statusCode(404);
        asPerson(7, "mallory", "admin").delete("/applications/" + id).then().statusCode(404);
        asPerson(7, "mallory", "admin").get("/applications").then().body("id", not(hasItem(id)));
        // Managing applications needs the admin scope.
        asPerson(OWNER_ID, "owner", "user").get("/applications").then().statusCode(403);
        given().get("/applications").then().statusCode(401);
    }

    /**
     * Any application may ask a person for the admin scope: an operator's token issued to one (a
     * third party the operator authorized) does not act as an operator. It does not mark an
     * application verified (its own, to ask anyone for the account scope after), nor gives one the
     * platform's name; the operator's own token (issued without a client) does both.
     */
    @Test
    void anOperatorsTokenIssuedToAnApplicationIsNoOperator() {
        long operator = 990;
        App app = createApp(true, "openid user");
        var throughAnApplication = (java.util.function.Supplier<io.restassured.specification.RequestSpecification>) () -> given()
                .header("X-Platform-Token", org.ziggurat.platform.testing.TestTokens.userWithClient(operator, "operator",
                        app.clientId(), "admin"));
        var own = (java.util.function.Supplier<io.restassured.specification.RequestSpecification>) () -> given()
                .header("X-Platform-Token", org.ziggurat.platform.testing.TestTokens.userWithClient(operator, "operator", null,
                        "admin"));
        throughAnApplication.get().contentType("application/json").body("{\"verified\": true}").patch("/applications/" + app.id())
                .then().statusCode(403).body("detail", org.hamcrest.Matchers.containsString("own token (issued without a client)"));
        asPerson(OWNER_ID, "owner", "admin").get("/applications/" + app.id()).then().statusCode(200)
                .body("verified", equalTo(false));
        for (var name : List.of("Ziggurat", "Ziggurat CLI")) {
            throughAnApplication.get().contentType("application/json").body(Map.of("name", name, "redirect_uris",
                    List.of("https://cli.example.org/cb"))).post("/applications").then().statusCode(422)
                    .body("errors.field", hasItem("name"));
        }
        own.get().contentType("application/json").body("{\"verified\": true}").patch("/applications/" + app.id())
                .then().statusCode(200).body("verified", equalTo(true));
        int cli = own.get().contentType("application/json").body(Map.of("name", "Ziggurat CLI", "redirect_uris",
                List.of("https://cli.example.org/cb"))).post("/applications").then().statusCode(201).extract().path("id");
        throughAnApplication.get().contentType("application/json").body(Map.of("name", "Ziggurat notes"))
                .patch("/applications/" + cli).then().statusCode(422).body("errors.field", hasItem("name"));
        own.get().contentType("application/json").body(Map.of("name", "Ziggurat notes")).patch("/applications/" + cli).then()
                .statusCode(200).body("name", equalTo("Ziggurat notes"));
    }

    @Test
    void invalidApplicationsAre422s() {
        for (Object uri : new Object[] {"http://example.org/cb", "https://x.example.org/cb#frag", "/relative",
                "javascript:alert(1)", "https://user:pw@x.example.org/", 5}) {
            asPerson(OWNER_ID, "owner", "admin").contentType("application/json")
                    .body(Map.of("name", "x", "redirect_uris", List.of(uri)))
                    .post("/applications").then().statusCode(422).body("errors[0].field", equalTo("redirect_uris[0]"));
        }
        asPerson(OWNER_ID, "owner", "admin").contentType("application/json")
                .body(Map.of("name", "x", "redirect_uris", List.of("https://x.example.org/"), "scopes", "public root"))
                .post("/applications").then().statusCode(422).body("errors[0].field", equalTo("scopes"));
        asPerson(OWNER_ID, "owner", "admin").contentType("application/json")
                .body(Map.of("redirect_uris", List.of()))
                .post("/applications").then().statusCode(422);
        asPerson(OWNER_ID, "owner", "admin").contentType("application/json").body("{").post("/applications")
                .then().statusCode(400).header("Content-Type", startsWith("application/problem+json"));
        asPerson(OWNER_ID, "owner", "admin").get("/applications/abc").then().statusCode(404);
    }

    @Test
    void updatesAndSecretResets() {
        App app = createApp(true, "public user");
        // Used once before every change, so that what the token endpoint knows of the client is
        // warm: each change below must apply at once all the same.
        post("/oauth/token", app, "grant_type", "client_credentials", "scope", "user").statusCode(200);
        asPerson(OWNER_ID, "owner", "admin").contentType("application/json").body(Map.of("name", "Renamed"))
                .patch("/applications/" + app.id()).then().statusCode(200)
                .body("name", equalTo("Renamed")).body("scopes", equalTo("public user"));
        asPerson(OWNER_ID, "owner", "admin").contentType("application/json")
                .body(Map.of("name", "Replaced", "redirect_uris", List.of("https://new.example.org/cb"), "scopes", "write"))
                .put("/applications/" + app.id()).then().statusCode(200)
                .body("redirect_uris", equalTo(List.of("https://new.example.org/cb"))).body("scopes", equalTo("write"));
        post("/oauth/token", app, "grant_type", "client_credentials", "scope", "user").statusCode(400)
                .body("error", equalTo("invalid_scope"));
        post("/oauth/token", app, "grant_type", "client_credentials", "scope", "write").statusCode(200);
        asPerson(OWNER_ID, "owner", "admin").contentType("application/json").body(Map.of("name", "x"))
                .put("/applications/" + app.id()).then().statusCode(422);
        asPerson(OWNER_ID, "owner", "admin").contentType("application/json").body(Map.of("confidential", false))
                .patch("/applications/" + app.id()).then().statusCode(422);
        String newSecret = asPerson(OWNER_ID, "owner", "admin").post("/applications/" + app.id() + "/secret")
                .then().statusCode(200).body("client_secret", startsWith("zcs_")).extract().path("client_secret");
        // The old secret stops working, the new one works.
        post("/oauth/token", app, "grant_type", "client_credentials").statusCode(401).body("error", equalTo("invalid_client"));
        post("/oauth/token", new App(app.id(), app.clientId(), newSecret), "grant_type", "client_credentials").statusCode(200);
    }

    @Test
    void publicClientsHaveNoSecret() {
        App app = createApp(false, "public");
        asPerson(OWNER_ID, "owner", "admin").get("/applications/" + app.id()).then().body("confidential", equalTo(false));
        org.junit.jupiter.api.Assertions.assertNull(app.secret());
        asPerson(OWNER_ID, "owner", "admin").post("/applications/" + app.id() + "/secret").then().statusCode(422);
    }

    @Test
    void deletingAnApplicationRevokesItsTokens() {
        App app = createApp(true, "public user");
        String token = (String) aliceTokens(app, "user").get("access_token");
        introspect(token).body("active", equalTo(true));
        post("/oauth/token", app, "grant_type", "client_credentials").statusCode(200);
        asPerson(OWNER_ID, "owner", "admin").delete("/applications/" + app.id()).then().statusCode(204);
        post("/oauth/token", app, "grant_type", "client_credentials").statusCode(401).body("error", equalTo("invalid_client"));
        introspect(token).body("active", equalTo(false));
        asPerson(OWNER_ID, "owner", "admin").get("/applications/" + app.id()).then().statusCode(404);
        given().header("Authorization", "Bearer " + token).get("/oauth/token/info").then().statusCode(401)
                .body("error", equalTo("invalid_request")).body("application", nullValue());
        asPerson(OWNER_ID, "owner", "admin").get("/applications").then().body("url", not(hasItem(endsWith("/" + app.id()))));
    }
}
