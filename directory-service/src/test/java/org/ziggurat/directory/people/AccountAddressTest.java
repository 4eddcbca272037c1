package org.ziggurat.directory.people;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.ziggurat.directory.DirectoryTestSupport.Person;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.directory.DirectoryTestSupport.as;
import static org.ziggurat.directory.DirectoryTestSupport.asService;
import static org.ziggurat.directory.DirectoryTestSupport.signUp;

/**
 * The sign-in address and the profile, as the account page (internal API) and scripts (the API,
 * with the account scope) change them: a new address is unproven, mailed a link, and the old one
 * told; the public address goes with the old one; the security log says so.
 */
@QuarkusTest
class AccountAddressTest {

    private static final String PASSWORD = "correct horse battery";

    @Inject
    Pool pool;

    private List<Row> outbox(Person person) {
        List<Row> rows = new ArrayList<>();
        pool.preparedQuery("SELECT kind, recipient, subject, body FROM mail_outbox WHERE person_id = $1 ORDER BY id")
                .execute(Tuple.of(person.id())).await().atMost(Duration.ofSeconds(10)).forEach(rows::add);
        return rows;
    }

    private static io.restassured.response.ValidatableResponse changeOnThePage(Person person, String email) {
        return asService("auth-service").contentType("application/json")
                .body(Map.of("email", email, "client_address", "203.0.113.5"))
                .put("/internal/people/" + person.id() + "/email").then();
    }

    @Test
    void aNewAddressIsUnprovenMailedALinkAndTheOldOneIsTold() throws Exception {
        Person person = signUp("address-change");
        PeopleTest.verified(person);
        asService("auth-service").contentType("application/json").body(Map.of("email", person.email()))
                .patch("/internal/people/" + person.id() + "/profile").then().statusCode(200)
                .body("public_email", equalTo(person.email())).body("email_verified", is(true));
        int mailsBefore = outbox(person).size();

        String moved = "moved-" + person.email();
        changeOnThePage(person, moved).statusCode(200).body("changed", is(true)).body("email", equalTo(moved));
        asService("auth-service").get("/internal/people/" + person.id() + "/profile").then().statusCode(200)
                .body("email", equalTo(moved)).body("email_verified", is(false)).body("public_email", nullValue());
        List<Row> mails = outbox(person).subList(mailsBefore, outbox(person).size());
        assertEquals(2, mails.size());
        Row link = mails.stream().filter(m -> m.getString("kind").equals("email_verification")).findFirst().orElseThrow();
        assertEquals(moved, link.getString("recipient"));
        assertTrue(link.getString("body").contains("/account/email/verification?token="), link.getString("body"));
        Row notice = mails.stream().filter(m -> m.getString("kind").equals("email_changed")).findFirst().orElseThrow();
        assertEquals(person.email(), notice.getString("recipient"), "the old address is told");
        assertTrue(notice.getString("body").contains(moved) && notice.getString("body").contains("203.0.113.5"));
        asService("auth-service").get("/internal/people/" + person.id() + "/factors").then()
                .body("events[0].kind", equalTo("email_changed")).body("events[0].detail", equalTo(moved))
                .body("events[0].client_address", equalTo("203.0.113.5"));

        changeOnThePage(person, moved.toUpperCase()).statusCode(200).body("changed", is(false));
        assertEquals(mailsBefore + 2, outbox(person).size(), "the same address again mails nothing");
    }

    @Test
    void anAddressThatIsNoneOrTakenIsRefused() {
        Person person = signUp("address-refused");
        Person other = signUp("address-other");
        changeOnThePage(person, "not an address").statusCode(422).body("errors[0].field", equalTo("email"));
        changeOnThePage(person, other.email().toUpperCase()).statusCode(409);
        asService("auth-service").contentType("application/json").body(Map.of("email", "x@example.org"))
                .put("/internal/people/987654321/email").then().statusCode(404);
        as(person, "user", "account").contentType("application/json").body(Map.of("email", "x@example.org"))
                .put("/internal/people/" + person.id() + "/email").then().statusCode(403);
        asService("auth-service").contentType("application/json").body("{").put("/internal/people/" + person.id() + "/email")
                .then().statusCode(400);
        asService("auth-service").get("/internal/people/" + person.id() + "/profile").then().body("email", equalTo(person.email()));
    }

    /** Scripts change the address with the account scope and the current password (OwnCredentialsTest has the password's rules). */
    @Test
    void scriptsChangeTheAddressOnlyWithTheAccountScopeAndThePassword() {
        Person person = signUp("address-api");
        String moved = "api-" + person.email();
        as(person, "user").contentType("application/json").body(Map.of("email", moved, "password", PASSWORD)).put("/user/email")
                .then().statusCode(403);
        as(person, "user", "account").contentType("application/json").body(Map.of("email", 7, "password", PASSWORD))
                .put("/user/email").then().statusCode(422);
        as(person, "user", "account").contentType("application/json").body("[]").put("/user/email").then().statusCode(400);
        as(person, "user", "account").contentType("application/json").body(Map.of("email", moved, "password", "not it"))
                .put("/user/email").then().statusCode(401);
        as(person, "user").get("/user").then().body("private_email", equalTo(person.email()));
        as(person, "user", "account").contentType("application/json").body(Map.of("email", moved, "password", PASSWORD))
                .put("/user/email").then().statusCode(200).body("changed", is(true));
        as(person, "user").get("/user").then().body("private_email", equalTo(moved));
    }

    @Test
    void aNewLinkIsMailedOnlyWhileTheAddressIsUnproven() throws Exception {
        Person person = signUp("address-resend");
        int before = outbox(person).size();
        as(person, "public").post("/user/email/verification-mails").then().statusCode(403);
        as(person, "user").post("/user/email/verification-mails").then().statusCode(202);
        asService("auth-service").post("/internal/people/" + person.id() + "/email-verification-mails").then().statusCode(202);
        assertEquals(before + 2, outbox(person).size());
        PeopleTest.verified(person);
        as(person, "user").post("/user/email/verification-mails").then().statusCode(409);
    }

    /**
     * The review's finding: a verification link could be asked for, and the address changed, with
     * no limit, each a mail. Mails with a link are counted per person and per address (4 each
     * within the window in tests, counted in PostgreSQL so every replica sees them): past either,
     * 429 with Retry-After, and nothing changes or is mailed.
     */
    @Test
    void mailsWithALinkAreLimitedPerPersonAndPerAddress() throws Exception {
        Person person = signUp("address-limit");
        int before = outbox(person).size();
        for (int i = 0; i < 3; i++) {
            as(person, "user").post("/user/email/verification-mails").then().statusCode(202);
        }
        asService("auth-service").post("/internal/people/" + person.id() + "/email-verification-mails").then().statusCode(202);
        as(person, "user").post("/user/email/verification-mails").then().statusCode(429)
                .contentType("application/problem+json").header("Retry-After", org.hamcrest.Matchers.matchesPattern("[1-9][0-9]*"));
        asService("auth-service").post("/internal/people/" + person.id() + "/email-verification-mails").then().statusCode(429);
        changeOnThePage(person, "elsewhere-" + person.email()).statusCode(429).header("Retry-After", org.hamcrest.Matchers.notNullValue());
        asService("auth-service").get("/internal/people/" + person.id() + "/profile").then().body("email", equalTo(person.email()));
        assertEquals(before + 4, outbox(person).size());

        // One address, whoever sends to it: four people in turn take it (and leave it), the fifth may not.
        String shared = org.ziggurat.directory.DirectoryTestSupport.uniqueName("shared") + "@example.org";
        for (int i = 0; i < 4; i++) {
            Person mover = signUp("address-mover");
            changeOnThePage(mover, shared).statusCode(200).body("changed", is(true));
            changeOnThePage(mover, "left-" + mover.email()).statusCode(200);
        }
        Person fifth = signUp("address-mover");
        changeOnThePage(fifth, shared.toUpperCase()).statusCode(429);
        as(fifth, "user", "account").contentType("application/json").body(Map.of("email", shared, "password", PASSWORD))
                .put("/user/email").then()
                .statusCode(429).contentType("application/problem+json").header("Retry-After", org.hamcrest.Matchers.notNullValue());
        asService("auth-service").get("/internal/people/" + fifth.id() + "/profile").then().body("email", equalTo(fifth.email()));
        changeOnThePage(fifth, "other-" + fifth.email()).statusCode(200);
    }

    @Test
    void theSecurityLogIsReadWithTheAccountScope() {
        Person person = signUp("address-log");
        changeOnThePage(person, "log-" + person.email()).statusCode(200);
        as(person, "user").get("/user/security-log").then().statusCode(403);
        as(person, "account").get("/user/security-log").then().statusCode(200)
                .body("[0].kind", equalTo("email_changed")).body("[0].client_address", equalTo("203.0.113.5"));
        as(person, "account").get("/user/security-log?limit=abc").then().statusCode(400);
        as(person, "account").get("/user/security-log?limit=0").then().statusCode(400);
        as(person, "account").get("/user/security-log?limit=1").then().statusCode(200).body("size()", equalTo(1));
    }

    /** The account page's avatar: a service's call with the image's bytes, under the same rules as PUT /user/avatar. */
    @Test
    void theAccountPageSetsTheAvatar() throws Exception {
        Person person = signUp("avatar-page");
        java.io.ByteArrayOutputStream png = new java.io.ByteArrayOutputStream();
        javax.imageio.ImageIO.write(new java.awt.image.BufferedImage(16, 16, java.awt.image.BufferedImage.TYPE_INT_RGB), "png", png);
        asService("auth-service").contentType("application/octet-stream").body("not an image".getBytes())
                .put("/internal/people/" + person.id() + "/avatar").then().statusCode(422);
        as(person, "user", "account").contentType("application/octet-stream").body(png.toByteArray())
                .put("/internal/people/" + person.id() + "/avatar").then().statusCode(403);
        asService("auth-service").contentType("application/octet-stream").body(png.toByteArray())
                .put("/internal/people/987654321/avatar").then().statusCode(404);
        asService("auth-service").contentType("application/octet-stream").body(png.toByteArray())
                .put("/internal/people/" + person.id() + "/avatar").then().statusCode(200)
                .body("picture", org.hamcrest.Matchers.containsString("/people/" + person.username() + "/avatar"));
        byte[] served = io.restassured.RestAssured.given().get("/people/" + person.username() + "/avatar").then().statusCode(200)
                .extract().asByteArray();
        org.junit.jupiter.api.Assertions.assertArrayEquals(png.toByteArray(), served);
    }
}
