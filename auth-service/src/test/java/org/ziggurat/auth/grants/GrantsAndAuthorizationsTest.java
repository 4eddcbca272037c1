package org.ziggurat.auth.grants;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.DirectoryDouble;
import org.ziggurat.auth.OAuthTestSupport;
import org.ziggurat.auth.OAuthTestSupport.App;
import org.ziggurat.platform.testing.TestTokens;

import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.ziggurat.auth.OAuthTestSupport.OWNER_ID;
import static org.ziggurat.auth.OAuthTestSupport.aliceTokens;
import static org.ziggurat.auth.OAuthTestSupport.asPerson;
import static org.ziggurat.auth.OAuthTestSupport.createApp;
import static org.ziggurat.auth.OAuthTestSupport.introspect;

@QuarkusTest
class GrantsAndAuthorizationsTest {

    static final long ALICE = 101;
    static final long BOB = 102;

    static io.restassured.specification.RequestSpecification asAlice() {
        return asPerson(ALICE, "alice", "public");
    }

    /**
     * A person's own token (the password grant without a client): the one that reads an
     * application's authorization, with its live token, besides that application's own tokens.
     */
    static io.restassured.specification.RequestSpecification ownToken(long id, String username) {
        return given().header("X-Platform-Token", TestTokens.userWithClient(id, username, null, "public"));
    }

    static io.restassured.specification.RequestSpecification asOwner() {
        return asPerson(OWNER_ID, "owner", "admin");
    }

    @Test
    void oneGrantPerApplicationWhateverTheTokens() {
        App app = createApp(true, "public user write");
        aliceTokens(app, "user");
        aliceTokens(app, "write");
        List<Map<String, Object>> grants = asAlice().get("/applications/grants").then().statusCode(200)
                .extract().jsonPath().getList("findAll { it.app.client_id == '" + app.clientId() + "' }");
        org.junit.jupiter.api.Assertions.assertEquals(1, grants.size());
        Map<String, Object> grant = grants.get(0);
        org.junit.jupiter.api.Assertions.assertEquals(List.of("user", "write"), grant.get("scopes"));
        int id = (Integer) grant.get("id");
        asAlice().get("/applications/grants/" + id).then().statusCode(200)
                .body("url", endsWith("/applications/grants/" + id))
                .body("app.name", equalTo("Test app"))
                .body("app.url", endsWith("/authorizations/clients/" + app.clientId()))
                .body("created_at", org.hamcrest.Matchers.matchesPattern(".*\\.\\d{3}Z"));
        asPerson(BOB, "bob", "public").get("/applications/grants/" + id).then().statusCode(404);
        given().get("/applications/grants").then().statusCode(401);
        asAlice().get("/applications/grants/abc").then().statusCode(404);
    }

    @Test
    void revokingAGrantEndsEveryTokenOfTheApplication() {
        App app = createApp(true, "public user");
        String first = (String) aliceTokens(app, "user").get("access_token");
        String second = (String) aliceTokens(app, "user").get("access_token");
        int id = asAlice().get("/applications/grants").then().extract().jsonPath()
                .getInt("find { it.app.client_id == '" + app.clientId() + "' }.id");
        asPerson(BOB, "bob", "public").delete("/applications/grants/" + id).then().statusCode(404);
        introspect(first).body("active", equalTo(true));
        asAlice().delete("/applications/grants/" + id).then().statusCode(204);
        introspect(first).body("active", equalTo(false));
        introspect(second).body("active", equalTo(false));
        asAlice().get("/applications/grants/" + id).then().statusCode(404);
        asAlice().get("/authorizations").then().body("app.client_id", not(hasItem(app.clientId())));
    }

    @Test
    void authorizationsAreTheLiveTokens() {
        App app = createApp(true, "public user");
        aliceTokens(app, "user");
        aliceTokens(app, "public");
        var mine = asAlice().get("/authorizations").then().statusCode(200).extract().jsonPath();
        List<Integer> ids = mine.getList("findAll { it.app?.client_id == '" + app.clientId() + "' }.id");
        org.junit.jupiter.api.Assertions.assertEquals(2, ids.size());
        asAlice().get("/authorizations/" + ids.get(0)).then().statusCode(200)
                .body("token", equalTo(""))
                .body("url", endsWith("/authorizations/" + ids.get(0)))
                .body("user_permissions.read", equalTo(false))
                .body("user_permissions.extra.manage", equalTo(false))
                .body("app.client_id", equalTo(app.clientId()))
                .body("$", not(org.hamcrest.Matchers.hasKey("project_accessors")));
        asPerson(BOB, "bob", "public").get("/authorizations/" + ids.get(0)).then().statusCode(404);
        given().get("/authorizations").then().statusCode(401);
    }

    @Test
    void theByClientAnswerShowsTheTokenAndWhoHasAccess() {
        App app = createApp(true, "public user");
        aliceTokens(app, "user");
        String newest = (String) aliceTokens(app, "user").get("access_token");
        // The owner gives alice read, the lab (alice is a member) create and comment, the private vault manage.
        asOwner().contentType("application/json").body(Map.of("read", true))
                .put("/applications/" + app.id() + "/accessors/people/" + ALICE).then().statusCode(201);
        asOwner().contentType("application/json").body(Map.of("create", true, "extra", Map.of("comment", true)))
                .put("/applications/" + app.id() + "/accessors/organizations/" + DirectoryDouble.LAB).then().statusCode(201);
        asOwner().contentType("application/json").body(Map.of("extra", Map.of("manage", true)))
                .put("/applications/" + app.id() + "/accessors/organizations/" + DirectoryDouble.VAULT).then().statusCode(201);

        ownToken(ALICE, "alice").header("X-Forwarded-Proto", "https").header("X-Forwarded-Host", "data.example.org")
                .header("X-Forwarded-Prefix", "/api")
                .get("/authorizations/clients/" + app.clientId()).then().statusCode(200)
                .body("token", equalTo(newest))
                .body("url", org.hamcrest.Matchers.startsWith("https://data.example.org/api/authorizations/"))
                .body("user_permissions.read", equalTo(true))
                .body("user_permissions.create", equalTo(true))
                .body("user_permissions.update", equalTo(false))
                .body("user_permissions.destroy", equalTo(false))
                .body("user_permissions.extra.comment", equalTo(true))
                .body("user_permissions.extra.manage", equalTo(false))
                // The private vault is not shown to alice, who is not a member.
                .body("project_accessors.name", contains("lab"))
                .body("project_accessors[0].url", equalTo("https://data.example.org/api/organizations/" + DirectoryDouble.LAB))
                .body("user_accessors", hasSize(1))
                .body("user_accessors[0].username", equalTo("alice"))
                .body("user_accessors[0].email", equalTo(""))
                .body("user_accessors[0].image_thumb_50", org.hamcrest.Matchers.notNullValue());

        // bob is in the vault, whose manage implies every permission.
        String bobToken = OAuthTestSupport.post("/oauth/token", app, "grant_type", "password", "username", "bob",
                "password", "bob password 12").statusCode(200).extract().path("access_token");
        ownToken(BOB, "bob").get("/authorizations/clients/" + app.clientId()).then().statusCode(200)
                .body("token", equalTo(bobToken))
                .body("user_permissions.update", equalTo(true)).body("user_permissions.destroy", equalTo(true))
                .body("user_permissions.extra.publish", equalTo(true))
                .body("project_accessors.name", hasItem("vault"));
        // The answer carries the live token: a token of the application itself reads it, a token
        // another application holds for the same person does not (that application would take it).
        given().header("X-Platform-Token", TestTokens.userWithClient(BOB, "bob", app.clientId(), "public"))
                .get("/authorizations/clients/" + app.clientId()).then().statusCode(200).body("token", equalTo(bobToken));
        given().header("X-Platform-Token", TestTokens.userWithClient(BOB, "bob", "AnotherClient0000000", "user", "admin"))
                .get("/authorizations/clients/" + app.clientId()).then().statusCode(404).body("token", nullValue());
        // carol has no authorization for it.
        ownToken(103, "carol").get("/authorizations/clients/" + app.clientId()).then().statusCode(404);
        ownToken(ALICE, "alice").get("/authorizations/clients/NoSuchClient00000000").then().statusCode(404);
    }

    @Test
    void onlyTheOwnerManagesPermissions() {
        App app = createApp(true, "public");
        asPerson(7, "mallory", "admin").contentType("application/json").body(Map.of("read", true))
                .put("/applications/" + app.id() + "/accessors/people/" + ALICE).then().statusCode(404);
        asPerson(OWNER_ID, "owner", "user").contentType("application/json").body(Map.of("read", true))
                .put("/applications/" + app.id() + "/accessors/people/" + ALICE).then().statusCode(403);
        asOwner().contentType("application/json").body(Map.of("read", "yes"))
                .put("/applications/" + app.id() + "/accessors/people/" + ALICE).then().statusCode(422)
                .body("errors[0].field", equalTo("read"));
        asOwner().contentType("application/json").body(Map.of("fly", true))
                .put("/applications/" + app.id() + "/accessors/people/" + ALICE).then().statusCode(422);
        asOwner().contentType("application/json").body(Map.of("read", true))
                .put("/applications/" + app.id() + "/accessors/people/999").then().statusCode(404);
        asOwner().contentType("application/json").body(Map.of("read", true))
                .put("/applications/" + app.id() + "/accessors/organizations/999").then().statusCode(404);
        asOwner().contentType("application/json").body(Map.of("read", true))
                .put("/applications/" + app.id() + "/accessors/people/" + ALICE).then().statusCode(201);
        asOwner().contentType("application/json").body(Map.of("read", true, "update", true))
                .put("/applications/" + app.id() + "/accessors/people/" + ALICE).then().statusCode(200)
                .body("permissions.update", equalTo(true));
        asOwner().get("/applications/" + app.id() + "/accessors").then().statusCode(200)
                .body("people.id", contains((int) ALICE)).body("organizations", empty());
        asOwner().delete("/applications/" + app.id() + "/accessors/people/" + ALICE).then().statusCode(204);
        asOwner().delete("/applications/" + app.id() + "/accessors/people/" + ALICE).then().statusCode(404);
        asOwner().contentType("application/json").body(Map.of("read", true))
                .put("/applications/" + app.id() + "/accessors/organizations/" + DirectoryDouble.LAB).then().statusCode(201);
        asOwner().delete("/applications/" + app.id() + "/accessors/organizations/" + DirectoryDouble.LAB).then().statusCode(204);
        // Deleting the application removes its links in the directory as well.
        asOwner().contentType("application/json").body(Map.of("read", true))
                .put("/applications/" + app.id() + "/accessors/organizations/" + DirectoryDouble.LAB).then().statusCode(201);
        asOwner().delete("/applications/" + app.id()).then().statusCode(204);
        asOwner().get("/applications/" + app.id() + "/accessors").then().statusCode(404);
        ownToken(ALICE, "alice").get("/authorizations/clients/" + app.clientId()).then().statusCode(404).body("token", nullValue());
    }

    /**
     * The review's finding: any application owner attached an application to any organization
     * (201 for a private one, 404 for none: telling which private organizations exist). Only an
     * active admin of the organization may; anyone else gets the answer of a missing one.
     */
    @Test
    void onlyAnOrganizationsAdminsAttachApplicationsToIt() {
        for (long stranger : new long[] {103, 101}) { // carol belongs nowhere; alice is a plain member of lab
            var created = asPerson(stranger, "someone", "admin").contentType("application/json")
                    .body(Map.of("name", "Stranger's app", "redirect_uris", List.of("https://s.example.org/cb"), "scopes", "public"))
                    .post("/applications").then().statusCode(201).extract();
            long appId = ((Number) created.path("id")).longValue();
            String missing = asPerson(stranger, "someone", "admin").contentType("application/json").body(Map.of("read", true))
                    .put("/applications/" + appId + "/accessors/organizations/999999").then().statusCode(404)
                    .extract().path("detail");
            for (long organization : new long[] {DirectoryDouble.LAB, DirectoryDouble.VAULT}) {
                asPerson(stranger, "someone", "admin").contentType("application/json").body(Map.of("read", true))
                        .put("/applications/" + appId + "/accessors/organizations/" + organization).then().statusCode(404)
                        .body("detail", equalTo(missing.replace("999999", Long.toString(organization))));
            }
            asPerson(stranger, "someone", "admin").get("/applications/" + appId + "/accessors").then().statusCode(200)
                    .body("organizations", empty());
        }
        // bob, the vault's admin, may attach his own application to it.
        var bobs = asPerson(102, "bob", "admin").contentType("application/json")
                .body(Map.of("name", "Vault app", "redirect_uris", List.of("https://v.example.org/cb"), "scopes", "public"))
                .post("/applications").then().statusCode(201).extract();
        asPerson(102, "bob", "admin").contentType("application/json").body(Map.of("read", true))
                .put("/applications/" + bobs.path("id") + "/accessors/organizations/" + DirectoryDouble.VAULT)
                .then().statusCode(201);
    }

    /**
     * The review's finding: an organization's requirement of a second factor held for its data, not
     * for its administration. Attaching an application to an organization (its members then hold
     * the permissions given) is administration: an admin without a second factor is told to set one
     * up, one with it to sign in with it, as the organization's data tells them.
     */
    @Test
    void anOrganizationsRequirementOfASecondFactorHoldsForAttachingApplications() {
        long without = DirectoryDouble.STRICT_ADMIN_WITHOUT_SECOND_FACTOR;
        long with = DirectoryDouble.STRICT_ADMIN;
        String strict = "/accessors/organizations/" + DirectoryDouble.STRICT;
        Object laxApp = asPerson(without, "lax", "admin").contentType("application/json")
                .body(Map.of("name", "Lax app", "redirect_uris", List.of("https://l.example.org/cb"), "scopes", "public"))
                .post("/applications").then().statusCode(201).extract().path("id");
        for (var token : List.of(TestTokens.user(without, "lax", "admin"), TestTokens.userWithSecondFactor(without, "lax", "admin"))) {
            given().header("X-Platform-Token", token).contentType("application/json").body(Map.of("read", true, "update", true))
                    .put("/applications/" + laxApp + strict).then().statusCode(403)
                    .contentType("application/problem+json").body("title", equalTo("Second Factor Required"))
                    .body("detail", org.hamcrest.Matchers.containsString("/account/security"));
        }
        asPerson(without, "lax", "admin").get("/applications/" + laxApp + "/accessors").then().statusCode(200)
                .body("organizations", empty());

        Object app = asPerson(with, "strict", "admin").contentType("application/json")
                .body(Map.of("name", "Strict app", "redirect_uris", List.of("https://s.example.org/cb"), "scopes", "public"))
                .post("/applications").then().statusCode(201).extract().path("id");
        asPerson(with, "strict", "admin").contentType("application/json").body(Map.of("read", true))
                .put("/applications/" + app + strict).then().statusCode(401)
                .body("title", equalTo("Insufficient User Authentication"))
                .header("WWW-Authenticate", org.hamcrest.Matchers.allOf(
                        org.hamcrest.Matchers.containsString("error=\"insufficient_user_authentication\""),
                        org.hamcrest.Matchers.containsString("acr_values=\"https://refeds.org/profile/mfa\"")));
        asPerson(with, "strict", "admin").get("/applications/" + app + "/accessors").then().body("organizations", empty());
        given().header("X-Platform-Token", TestTokens.userWithSecondFactor(with, "strict", "admin"))
                .contentType("application/json").body(Map.of("read", true))
                .put("/applications/" + app + strict).then().statusCode(201);
        asPerson(with, "strict", "admin").get("/applications/" + app + "/accessors").then()
                .body("organizations.id", contains((int) DirectoryDouble.STRICT));
    }
}
