package org.ziggurat.auth.people;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport;
import org.ziggurat.platform.testing.TestTokens;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.ziggurat.auth.OAuthTestSupport.introspect;
import static org.ziggurat.auth.OAuthTestSupport.post;

/**
 * A person's data in auth-service, for directory-service alone: the export's part (applications,
 * authorized applications, sign-ins; never a secret), and the erasure of a deleted account: every
 * token ends, their applications go with what was issued to them, and asking twice does no harm.
 */
@QuarkusTest
class PersonDataTest {

    private static final long GUS = 107;

    private static io.restassured.specification.RequestSpecification asDirectory() {
        return given().header("X-Platform-Token", TestTokens.service("directory-service")).contentType("application/json");
    }

    @Test
    void theExportListsThePersonsApplicationsAndTheErasureEndsEverything() {
        Map<String, Object> app = new HashMap<>();
        app.put("name", "Gus's tool");
        app.put("redirect_uris", List.of("https://gus.example.org/callback"));
        app.put("scopes", "user");
        app.put("password_grant", true);
        var created = OAuthTestSupport.asPerson(GUS, "gus", "admin").contentType("application/json").body(app)
                .post("/applications").then().statusCode(201).extract();
        OAuthTestSupport.App gusApp = new OAuthTestSupport.App(((Number) created.path("id")).longValue(),
                created.path("client_id"), created.path("client_secret"));
        String alicesTokenForGusApp = (String) OAuthTestSupport.aliceTokens(gusApp, "user").get("access_token");
        String gusToken = post("/oauth/token", null, "grant_type", "password", "username", "gus", "password", "gus password 7",
                "scope", "user").statusCode(200).extract().path("access_token");
        OAuthTestSupport.App other = OAuthTestSupport.createApp(true, "user");
        String gusTokenForOther = post("/oauth/token", other, "grant_type", "password", "username", "gus",
                "password", "gus password 7", "scope", "user").statusCode(200).extract().path("access_token");

        asDirectory().get("/internal/people/" + GUS + "/export").then().statusCode(200)
                .body("applications.name", equalTo(List.of("Gus's tool")))
                .body("applications[0].client_id", equalTo(gusApp.clientId()))
                .body("applications[0]", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasKey("client_secret")));
        given().header("X-Platform-Token", TestTokens.service("vocab-service")).get("/internal/people/" + GUS + "/export")
                .then().statusCode(403);
        given().header("X-Platform-Token", TestTokens.user(GUS, "gus", "account")).get("/internal/people/" + GUS + "/export")
                .then().statusCode(403);

        asDirectory().body(Map.of("person_id", GUS, "username", "gus")).post("/internal/erasures").then().statusCode(204);
        introspect(gusToken).body("active", equalTo(false));
        introspect(gusTokenForOther).body("active", equalTo(false));
        introspect(alicesTokenForGusApp).body("active", equalTo(false));
        OAuthTestSupport.asPerson(GUS, "gus", "admin").get("/applications/" + gusApp.id()).then().statusCode(404);
        asDirectory().get("/internal/people/" + GUS + "/export").then().statusCode(200)
                .body("applications", equalTo(List.of())).body("authorized_applications", equalTo(List.of()));
        asDirectory().body(Map.of("person_id", GUS, "username", "gus")).post("/internal/erasures").then().statusCode(204);
        asDirectory().body("{}").post("/internal/erasures").then().statusCode(422);
    }

    /** After a password changed through the API: jo's sign-ins and script tokens end; an application keeps its access. */
    @Test
    void aSignOutEndsTheSignInsAndTheScriptsTokensNotTheApplications() {
        String script = post("/oauth/token", null, "grant_type", "password", "username", "jo", "password", "jo password 10",
                "scope", "user").statusCode(200).extract().path("access_token");
        OAuthTestSupport.App app = OAuthTestSupport.createApp(true, "user");
        String application = post("/oauth/token", app, "grant_type", "password", "username", "jo", "password", "jo password 10",
                "scope", "user").statusCode(200).extract().path("access_token");
        org.ziggurat.auth.pages.AccountBrowsers.Browser jo = org.ziggurat.auth.pages.AccountBrowsers.signedIn("jo",
                "jo password 10");

        given().header("X-Platform-Token", TestTokens.service("vocab-service")).contentType("application/json")
                .body(Map.of("person_id", 110)).post("/internal/sign-outs").then().statusCode(403);
        asDirectory().body("{}").post("/internal/sign-outs").then().statusCode(422);
        asDirectory().body(Map.of("person_id", 110)).post("/internal/sign-outs").then().statusCode(204);
        introspect(script).body("active", equalTo(false));
        introspect(application).body("active", equalTo(true));
        org.junit.jupiter.api.Assertions.assertTrue(jo.signedOut(), "the browser's sign-in ended");
        asDirectory().body(Map.of("person_id", 110)).post("/internal/sign-outs").then().statusCode(204);
    }
}
