package org.ziggurat.directory.organizations;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.ziggurat.directory.DirectoryTestSupport.Person;

import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.directory.DirectoryTestSupport.asService;
import static org.ziggurat.directory.DirectoryTestSupport.as;
import static org.ziggurat.directory.DirectoryTestSupport.signUp;
import static org.ziggurat.directory.DirectoryTestSupport.uniqueName;

@QuarkusTest
class OrganizationsTest {

    static int create(Person admin, String name, String visibility) {
        return as(admin, "admin").contentType("application/json")
                .body(Map.of("name", name, "display_name", "The " + name, "visibility", visibility))
                .post("/organizations").then().statusCode(201).extract().path("id");
    }

    static void invite(Person admin, int org, Person who, String role) {
        as(admin, "admin").contentType("application/json").body(Map.of("role", role))
                .put("/organizations/" + org + "/memberships/" + who.id()).then().statusCode(201);
    }

    static void accept(Person who, int org) {
        as(who, "admin").contentType("application/json").body(Map.of("state", "active"))
                .patch("/user/memberships/organizations/" + org).then().statusCode(200).body("state", equalTo("active"));
    }

    @Test
    void theCreatorIsAnActiveAdmin() {
        Person ann = signUp("ann");
        String name = uniqueName("lab");
        int id = as(ann, "admin").contentType("application/json")
                .body(Map.of("name", name, "display_name", "Ann's Lab", "visibility", "public"))
                .post("/organizations").then().statusCode(201)
                .header("Location", endsWith("/organizations/" + as(ann, "admin").get("/user/organizations")
                        .then().extract().path("find { it.name == '" + name + "' }.id")))
                .body("name", equalTo(name))
                .body("display_name", equalTo("Ann's Lab"))
                .body("visibility", equalTo("public"))
                .body("member_ids", contains((int) ann.id()))
                .body("oauth_application_uids", empty())
                .extract().path("id");
        as(ann, "public").get("/organizations/" + id + "/memberships/" + ann.id()).then().statusCode(200)
                .body("state", equalTo("active")).body("role", equalTo("admin"))
                .body("url", endsWith("/organizations/" + id + "/memberships/" + ann.id()))
                .body("project.type", equalTo("Project")).body("project.id", equalTo(id)).body("project.name", equalTo(name))
                .body("user.type", equalTo("User")).body("user.username", equalTo(ann.username()))
                .body("project_url", endsWith("/organizations/" + id));
        given().get("/organizations/" + id + "/members/" + ann.id()).then().statusCode(204);
        given().get("/organizations/" + id + "/members").then().statusCode(200)
                .body("username", contains(ann.username())).body("[0]", not(org.hamcrest.Matchers.hasKey("email")));
    }

    @Test
    void creatingNeedsTheAdminScopeAndAValidFreeName() {
        Person bo = signUp("bo");
        given().contentType("application/json").body(Map.of("name", uniqueName("x"))).post("/organizations")
                .then().statusCode(401);
        as(bo, "public", "write").contentType("application/json").body(Map.of("name", uniqueName("x")))
                .post("/organizations").then().statusCode(403);
        for (String bad : new String[] {"Bad Name", "-x", "oauth", "people", "a".repeat(40)}) {
            as(bo, "admin").contentType("application/json").body(Map.of("name", bad)).post("/organizations")
                    .then().statusCode(422).body("errors.field", hasItem("name"));
        }
        as(bo, "admin").contentType("application/json").body(Map.of("name", uniqueName("x"), "visibility", "secret"))
                .post("/organizations").then().statusCode(422).body("errors.field", hasItem("visibility"));
        as(bo, "admin").contentType("application/json").body(Map.of("name", 12)).post("/organizations")
                .then().statusCode(422);
        as(bo, "admin").contentType("application/json").body("{\"name\":").post("/organizations").then().statusCode(400);
        // A null name is a missing one, not a 500 (BadInputTest found it).
        as(bo, "admin").contentType("application/json").body("{\"name\":null,\"display_name\":\"Lab\"}")
                .post("/organizations").then().statusCode(422).body("errors.field", hasItem("name"));
        // A person's username is a namespace too.
        as(bo, "admin").contentType("application/json").body(Map.of("name", bo.username())).post("/organizations")
                .then().statusCode(409);
        String name = uniqueName("dup");
        create(bo, name, "public");
        as(bo, "admin").contentType("application/json").body(Map.of("name", name)).post("/organizations")
                .then().statusCode(409);
    }

    @Test
    void privateOrganizationsAreInvisibleToOutsiders() {
        Person cy = signUp("cy");
        Person outsider = signUp("out");
        String name = uniqueName("secret");
        int id = create(cy, name, "private");
        given().get("/organizations/" + id).then().statusCode(404);
        as(outsider, "public").get("/organizations/" + id).then().statusCode(404);
        as(outsider, "public").get("/organizations/" + id + "/members").then().statusCode(404);
        as(outsider, "public").get("/organizations/" + id + "/members/" + cy.id()).then().statusCode(404);
        as(outsider, "public").get("/organizations/" + id + "/memberships/" + cy.id()).then().statusCode(404);
        as(outsider, "admin").contentType("application/json").body(Map.of("display_name", "Hacked"))
                .patch("/organizations/" + id).then().statusCode(404);
        List<String> anonymousNames = given().get("/organizations?per_page=100").then().statusCode(200)
                .extract().jsonPath().getList("name");
        assertFalse(anonymousNames.contains(name));
        given().get("/people/" + cy.username() + "/organizations").then().statusCode(200).body("name", not(hasItem(name)));
        as(cy, "public").get("/organizations/" + id).then().statusCode(200).body("visibility", equalTo("private"));
        as(cy, "public").get("/user/organizations").then().body("name", hasItem(name));
        as(cy, "public").get("/people/" + cy.username() + "/organizations").then().body("name", hasItem(name));
        List<String> memberNames = as(cy, "public").get("/organizations?per_page=100").then().extract().jsonPath().getList("name");
        assertTrue(memberNames.contains(name));
    }

    @Test
    void organizationsAreListedNewestFirstWithPaging() {
        Person di = signUp("di");
        int older = create(di, uniqueName("older"), "public");
        int newer = create(di, uniqueName("newer"), "public");
        List<Integer> ids = given().get("/organizations?per_page=100").then().statusCode(200)
                .header("X-Total-Count", org.hamcrest.Matchers.notNullValue())
                .extract().jsonPath().getList("id");
        assertTrue(ids.indexOf(newer) < ids.indexOf(older), "newest first");
        given().get("/organizations?per_page=1").then().header("Link", containsString("rel=\"next\""));
        given().get("/organizations?per_page=abc").then().statusCode(400);
    }

    @Test
    void invitationsAreAcceptedAndRolesChanged() {
        Person admin = signUp("eve");
        Person joiner = signUp("fox");
        int org = create(admin, uniqueName("team"), "public");
        invite(admin, org, joiner, "member");
        as(joiner, "public").get("/organizations/" + org + "/memberships/" + joiner.id()).then().statusCode(200)
                .body("state", equalTo("pending")).body("role", equalTo("member"));
        given().get("/organizations/" + org + "/members/" + joiner.id()).then().statusCode(404);
        accept(joiner, org);
        given().get("/organizations/" + org + "/members/" + joiner.id()).then().statusCode(204);
        given().get("/organizations/" + org).then().body("member_ids", hasItem((int) joiner.id()));
        // A plain member cannot invite or change roles.
        Person third = signUp("gil");
        as(joiner, "admin").contentType("application/json").body(Map.of("role", "member"))
                .put("/organizations/" + org + "/memberships/" + third.id()).then().statusCode(403);
        as(admin, "admin").contentType("application/json").body(Map.of("role", "admin"))
                .put("/organizations/" + org + "/memberships/" + joiner.id()).then().statusCode(200)
                .body("role", equalTo("admin")).body("state", equalTo("active"));
        as(admin, "admin").contentType("application/json").body(Map.of("role", "owner"))
                .put("/organizations/" + org + "/memberships/" + third.id()).then().statusCode(422);
        as(admin, "admin").contentType("application/json").body(Map.of("role", "member"))
                .put("/organizations/" + org + "/memberships/999999999").then().statusCode(404);
        as(joiner, "admin").contentType("application/json").body(Map.of("state", "pending"))
                .patch("/user/memberships/organizations/" + org).then().statusCode(422);
        as(third, "admin").contentType("application/json").body(Map.of("state", "active"))
                .patch("/user/memberships/organizations/" + org).then().statusCode(404);
    }

    @Test
    void theLastAdminCannotLeaveOrBeDemoted() {
        Person hal = signUp("hal");
        Person ivy = signUp("ivy");
        int org = create(hal, uniqueName("keep"), "public");
        as(hal, "admin").delete("/organizations/" + org + "/memberships/" + hal.id()).then().statusCode(409)
                .contentType("application/problem+json");
        as(hal, "admin").contentType("application/json").body(Map.of("role", "member"))
                .put("/organizations/" + org + "/memberships/" + hal.id()).then().statusCode(409);
        invite(hal, org, ivy, "admin");
        accept(ivy, org);
        as(hal, "admin").delete("/organizations/" + org + "/memberships/" + hal.id()).then().statusCode(204);
        given().get("/organizations/" + org + "/members/" + hal.id()).then().statusCode(404);
        as(ivy, "admin").delete("/organizations/" + org + "/memberships/" + ivy.id()).then().statusCode(409);
    }

    @Test
    void adminsRemoveMembersAndMembersLeave() {
        Person jo = signUp("jo");
        Person kim = signUp("kim");
        Person lee = signUp("lee");
        int org = create(jo, uniqueName("crew"), "public");
        invite(jo, org, kim, "member");
        accept(kim, org);
        invite(jo, org, lee, "member");
        // A member cannot remove another.
        as(kim, "admin").delete("/organizations/" + org + "/memberships/" + lee.id()).then().statusCode(403);
        // The invited person declines; an admin removes a member.
        as(lee, "admin").delete("/organizations/" + org + "/memberships/" + lee.id()).then().statusCode(204);
        as(jo, "admin").delete("/organizations/" + org + "/memberships/" + kim.id()).then().statusCode(204);
        as(jo, "admin").delete("/organizations/" + org + "/memberships/" + kim.id()).then().statusCode(404);
        given().get("/organizations/" + org).then().body("member_ids", contains((int) jo.id()));
    }

    @Test
    void adminsChangeAndDeleteOrganizations() {
        Person max = signUp("max");
        Person ned = signUp("ned");
        String name = uniqueName("rename");
        int org = create(max, name, "public");
        invite(max, org, ned, "member");
        accept(ned, org);
        as(ned, "admin").contentType("application/json").body(Map.of("display_name", "Nope"))
                .patch("/organizations/" + org).then().statusCode(403);
        as(max, "public").contentType("application/json").body(Map.of("display_name", "Nope"))
                .patch("/organizations/" + org).then().statusCode(403);
        as(max, "admin").contentType("application/json").body(Map.of("display_name", "Renamed", "visibility", "private"))
                .patch("/organizations/" + org).then().statusCode(200)
                .body("display_name", equalTo("Renamed")).body("visibility", equalTo("private")).body("name", equalTo(name));
        given().get("/organizations/" + org).then().statusCode(404);
        as(max, "admin").contentType("application/json").body(Map.of("name", "other"))
                .patch("/organizations/" + org).then().statusCode(422);
        as(ned, "admin").delete("/organizations/" + org).then().statusCode(403);
        as(max, "admin").delete("/organizations/" + org).then().statusCode(204);
        as(max, "admin").get("/organizations/" + org).then().statusCode(404);
        // The name is retired, not freed: neither an organization nor a person can take it again,
        // so what other services keep under it never passes to a new owner; nor does it resolve.
        as(max, "admin").contentType("application/json").body(Map.of("name", name)).post("/organizations").then()
                .statusCode(409).contentType("application/problem+json");
        given().contentType("application/json").body(Map.of("username", name, "password", "a long password 123",
                "email", name + "@example.org", "display_name", "Taker")).post("/people").then().statusCode(409);
        asService("vocab-service").get("/internal/namespaces/" + name)
                .then().statusCode(404);
    }

    @Test
    void badIdsAre404s() {
        given().get("/organizations/abc").then().statusCode(404).contentType("application/problem+json");
        given().get("/organizations/0").then().statusCode(404);
        given().get("/organizations/99999999999999999999999").then().statusCode(404);
        given().get("/organizations/1/members/x").then().statusCode(404);
        given().get("/people/nobody-at-all-here/organizations").then().statusCode(404);
        given().get("/user/organizations").then().statusCode(401);
    }
}
