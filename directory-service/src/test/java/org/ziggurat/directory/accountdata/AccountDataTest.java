package org.ziggurat.directory.accountdata;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.ziggurat.directory.DirectoryTestSupport.Person;

import java.time.Duration;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ziggurat.directory.DirectoryTestSupport.as;
import static org.ziggurat.directory.DirectoryTestSupport.asService;
import static org.ziggurat.directory.DirectoryTestSupport.signUp;
import static org.ziggurat.directory.DirectoryTestSupport.uniqueName;

/**
 * A person's data across the platform: the export is the directory's part and every peer's, or
 * nothing; deleting the account follows the rule for organizations, retires the name, and owes
 * each peer an erasure, delivered until it is done, once per peer.
 */
@QuarkusTest
class AccountDataTest {

    /** The body that confirms the export and the deletion: the current password. */
    private static final Map<String, String> PASSWORD = Map.of("password", "correct horse battery");

    @Inject
    Pool pool;

    private static int organization(Person admin) {
        return as(admin, "admin").contentType("application/json").body(Map.of("name", uniqueName("org")))
                .post("/organizations").then().statusCode(201).extract().path("id");
    }

    private static void member(Person admin, int org, Person who, String role) {
        as(admin, "admin").contentType("application/json").body(Map.of("role", role))
                .put("/organizations/" + org + "/memberships/" + who.id()).then().statusCode(201);
        as(who, "admin").contentType("application/json").body(Map.of("state", "active"))
                .patch("/user/memberships/organizations/" + org).then().statusCode(200);
    }

    private long erasures(Person person, String condition) {
        return pool.preparedQuery("SELECT count(*) FROM peer_delivery WHERE kind = 'erasure' AND person_id = $1 AND " + condition)
                .execute(Tuple.of(person.id())).await().atMost(Duration.ofSeconds(10)).iterator().next().getLong(0);
    }

    @Test
    void theExportHoldsTheDirectorysPartAndEveryPeersOrNothing() {
        Person person = signUp("exporter");
        int org = organization(person);
        String orgName = given().get("/organizations/" + org).then().extract().path("name");
        as(person, "user").contentType("application/json").body(PASSWORD).post("/user/export").then().statusCode(403);
        asService("auth-service").contentType("application/json").body(Map.of("identity", Map.of("provider", "orcid",
                        "subject", "0000-0002-1825-0097-" + person.id(), "orcid", "0000-0002-1825-0097"), "client_address", "192.0.2.1"))
                .post("/internal/people/" + person.id() + "/identities").then().statusCode(201);
        as(person, "account").contentType("application/json").body(PASSWORD).post("/user/export").then().statusCode(200)
                .body("directory.linked_identities[0].orcid", equalTo("0000-0002-1825-0097"))
                .header("Content-Disposition", containsString("ziggurat-" + person.username() + ".json"))
                .header("Cache-Control", "no-store")
                .body("format", equalTo("ziggurat-account-export/1"))
                .body("directory.profile.username", equalTo(person.username()))
                .body("directory.profile.email", equalTo(person.email()))
                .body("directory.memberships.organization", hasItem(orgName))
                .body("directory.mails.kind", hasItem("email_verification"))
                .body("auth.peer", equalTo("auth-service")).body("auth.person_id", equalTo((int) person.id()))
                .body("vocab.peer", equalTo("vocab-service")).body("events.peer", equalTo("events-service"));
        asService("auth-service").get("/internal/people/" + person.id() + "/export").then().statusCode(200)
                .body("directory.profile.username", equalTo(person.username()));
        asService("auth-service").get("/internal/people/987654321/export").then().statusCode(404);
        as(person, "account").get("/internal/people/" + person.id() + "/export").then().statusCode(403);

        PeersDouble.AWAY.add("vocab-service");
        try {
            as(person, "account").contentType("application/json").body(PASSWORD).post("/user/export").then().statusCode(503);
        } finally {
            PeersDouble.AWAY.remove("vocab-service");
        }
    }

    @Test
    void anAccountGoesWithTheOrganizationsOnlyItWasInAndItsNameStaysTaken() {
        Person person = signUp("leaver");
        Person other = signUp("stayer");
        int alone = organization(person);
        String aloneName = given().get("/organizations/" + alone).then().extract().path("name");
        int shared = organization(person);
        member(person, shared, other, "member");

        as(person, "user").contentType("application/json").body(PASSWORD).delete("/user?confirm=" + person.username()).then()
                .statusCode(403);
        as(person, "account").contentType("application/json").body(PASSWORD).delete("/user?confirm=someone-else").then()
                .statusCode(422).body("errors[0].field", equalTo("confirm"));
        as(person, "account").contentType("application/json").body(PASSWORD).delete("/user").then().statusCode(422);
        String sharedName = given().get("/organizations/" + shared).then().extract().path("name");
        as(person, "account").contentType("application/json").body(PASSWORD).delete("/user?confirm=" + person.username()).then()
                .statusCode(409)
                .body("detail", containsString(sharedName));
        as(person, "admin").contentType("application/json").body(Map.of("role", "admin"))
                .put("/organizations/" + shared + "/memberships/" + other.id()).then().statusCode(200);

        as(person, "account").contentType("application/json").body(PASSWORD).delete("/user?confirm="
                        + person.username().toUpperCase()).then().statusCode(200)
                .body("username", equalTo(person.username())).body("organizations_deleted", equalTo(java.util.List.of(aloneName)));
        given().get("/people/" + person.username()).then().statusCode(404);
        given().get("/organizations/" + alone).then().statusCode(404);
        given().get("/organizations/" + shared).then().statusCode(200);
        as(person, "account").get("/user").then().statusCode(401);
        // The name is never given again, the person's nor their organization's.
        given().contentType("application/json").body(Map.of("username", person.username(), "password", "correct horse battery",
                "email", "again-" + person.email())).post("/people").then().statusCode(409);
        as(other, "admin").contentType("application/json").body(Map.of("name", aloneName)).post("/organizations")
                .then().statusCode(409);
        // The last mail goes to the address the account had.
        assertEquals(1, pool.preparedQuery("SELECT count(*) FROM mail_outbox WHERE recipient = $1 AND kind = 'account_deleted'")
                .execute(Tuple.of(person.email())).await().atMost(Duration.ofSeconds(10)).iterator().next().getLong(0));

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> erasures(person, "done_at IS NOT NULL") == 3);
        for (String peer : Peers.NAMES) {
            assertEquals(1, PeersDouble.ERASURES.stream().filter(e -> e.peer().equals(peer) && e.personId() == person.id()
                    && e.username().equals(person.username())).count(), peer);
        }
    }

    @Test
    void aPeerThatIsAwayGetsItsErasureWhenItIsBack() {
        Person person = signUp("erased-later");
        PeersDouble.AWAY.add("events-service");
        try {
            asService("auth-service").contentType("application/json").body(Map.of("confirm", person.username()))
                    .post("/internal/people/" + person.id() + "/deletion").then().statusCode(200);
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> erasures(person, "done_at IS NOT NULL") == 2
                    && erasures(person, "peer = 'events-service' AND attempts >= 2 AND last_error IS NOT NULL") == 1);
        } finally {
            PeersDouble.AWAY.remove("events-service");
        }
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> erasures(person, "done_at IS NOT NULL") == 3);
        assertEquals(1, PeersDouble.ERASURES.stream().filter(e -> e.peer().equals("events-service")
                && e.personId() == person.id()).count(), "delivered once it was back, once");
        asService("auth-service").contentType("application/json").body(Map.of("confirm", person.username()))
                .post("/internal/people/" + person.id() + "/deletion").then().statusCode(404);
    }
}
