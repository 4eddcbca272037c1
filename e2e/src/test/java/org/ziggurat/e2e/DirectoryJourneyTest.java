package org.ziggurat.e2e;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.UUID;

import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.ziggurat.e2e.Platform.anonymous;
import static org.ziggurat.e2e.Platform.as;

/** People, a private organization, an invitation accepted, and what outsiders may and may not see. */
class DirectoryJourneyTest {

    @Test
    void anOrganizationWithMembers() {
        Platform.Person ann = Platform.signUp("ann");
        Platform.Person bob = Platform.signUp("bob");
        Platform.Person eve = Platform.signUp("eve");
        String annToken = Platform.accessToken(ann, "user", "admin");
        String bobToken = Platform.accessToken(bob, "user", "admin");
        String eveToken = Platform.accessToken(eve, "user", "admin");

        anonymous().get("/people/" + bob.username()).then().statusCode(200).body("username", equalTo(bob.username()))
                .body("$", not(org.hamcrest.Matchers.hasKey("email")));
        // Sign-up addresses are private: the owner sees theirs (user scope); "email" is the public one, none yet.
        as(bobToken).get("/user").then().statusCode(200).body("private_email", equalTo(bob.username() + "@example.org"));

        String name = "lab-" + UUID.randomUUID().toString().substring(0, 8);
        int org = as(annToken).contentType("application/json")
                .body(Map.of("name", name, "display_name", "Ann's lab", "visibility", "private"))
                .post("/organizations").then().statusCode(201).extract().path("id");
        as(annToken).contentType("application/json").body(Map.of("role", "member"))
                .put("/organizations/" + org + "/memberships/" + bob.id()).then().statusCode(201)
                .body("state", equalTo("pending"));
        // Pending members are not members yet; outsiders do not see a private organization at all.
        as(annToken).get("/organizations/" + org + "/members/" + bob.id()).then().statusCode(404);
        as(bobToken).contentType("application/json").body(Map.of("state", "active"))
                .patch("/user/memberships/organizations/" + org).then().statusCode(200).body("state", equalTo("active"));
        as(annToken).get("/organizations/" + org + "/members/" + bob.id()).then().statusCode(204);
        as(bobToken).get("/organizations/" + org + "/members").then().statusCode(200)
                .body("username", containsInAnyOrder(ann.username(), bob.username()));
        as(bobToken).get("/user/organizations").then().body("name", hasItem(name));
        as(eveToken).get("/organizations/" + org).then().statusCode(404);
        anonymous().get("/organizations/" + org + "/members").then().statusCode(404);
        // A plain member may not invite.
        as(bobToken).contentType("application/json").body(Map.of("role", "member"))
                .put("/organizations/" + org + "/memberships/" + eve.id()).then().statusCode(403);
    }

    /**
     * The review's finding: deleting an organization freed its name, and whoever signed up with
     * it next read (and wrote) the vocabularies and data events kept under it. The rule now: a
     * deleted organization's name is retired. Nobody can take it again, and what was kept under it
     * answers 404 to everyone.
     */
    @Test
    void aDeletedOrganizationsDataNeverPassesToANewOwner() {
        Platform.Person ada = Platform.signUp("ada");
        String token = Platform.accessToken(ada, "user", "write", "update", "admin");
        String name = "gone-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        int org = as(token).contentType("application/json").body(java.util.Map.of("name", name, "visibility", "public"))
                .post("/organizations").then().statusCode(201).extract().path("id");
        as(token).contentType("application/json").body(java.util.Map.of("slug", "notes", "title", "Notes"))
                .post("/" + name + "/vocab/schemes").then().statusCode(201);
        as(token).contentType("application/json").body(java.util.Map.of("note", "kept under the name"))
                .post("/" + name + "/repositories/r/data/events").then().statusCode(201);
        anonymous().get("/" + name + "/vocab/schemes/notes").then().statusCode(200);

        as(token).delete("/organizations/" + org).then().statusCode(204);
        long deletedAt = System.currentTimeMillis();
        anonymous().contentType("application/json").body(java.util.Map.of("username", name, "password", "correct horse 12345",
                "email", name + "@example.org", "display_name", "Next")).post("/people").then().statusCode(409);
        as(token).contentType("application/json").body(java.util.Map.of("name", name, "visibility", "public"))
                .post("/organizations").then().statusCode(409);
        // Each instance of the services keeps a namespace's rights for 5 s
        // (ziggurat.namespaces.cache-ttl): past that, every instance answers 404. Four requests of
        // each kind, so that the balancer sends some to every instance.
        java.util.concurrent.locks.LockSupport.parkNanos(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(
                Math.max(0, deletedAt + 5_500 - System.currentTimeMillis())));
        for (int i = 0; i < 4; i++) {
            anonymous().get("/" + name + "/vocab/schemes/notes").then().statusCode(404);
            as(token).get("/" + name + "/repositories/r/data/events").then().statusCode(404);
        }
        as(token).contentType("application/json").body(java.util.Map.of("note", "written after"))
                .post("/" + name + "/repositories/r/data/events").then().statusCode(404);
    }
}
