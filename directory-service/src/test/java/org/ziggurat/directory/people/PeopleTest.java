package org.ziggurat.directory.people;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;
import org.ziggurat.directory.DirectoryTestSupport.Person;
import org.ziggurat.platform.testing.ServiceDatabase;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.directory.DirectoryTestSupport.as;
import static org.ziggurat.directory.DirectoryTestSupport.signUp;
import static org.ziggurat.directory.DirectoryTestSupport.uniqueName;

@QuarkusTest
class PeopleTest {

    private static Map<String, Object> signUpBody(String username) {
        Map<String, Object> body = new HashMap<>();
        body.put("username", username);
        body.put("password", "correct horse battery");
        body.put("email", username + "@example.org");
        body.put("display_name", "Someone");
        return body;
    }

    @Test
    void signUpCreatesAPersonWithAnArgon2idHash() throws Exception {
        String username = uniqueName("ada");
        given().contentType("application/json").body(signUpBody(username)).post("/people")
                .then().statusCode(201)
                .header("Location", endsWith("/people/" + username))
                .body("username", equalTo(username))
                .body("id", notNullValue())
                .body("display_name", equalTo("Someone"))
                .body("type", equalTo("User"))
                .body("url", endsWith("/people/" + username))
                .body("html_url", endsWith("/" + username))
                .body("image_thumb_50", containsString("/people/" + username + "/avatar"))
                .body("created_at", matchesPattern("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"))
                .body("$", not(hasKey("email")))
                .body("$", not(hasKey("password")));
        try (Connection c = ServiceDatabase.connect();
                PreparedStatement s = c.prepareStatement("SELECT password_hash FROM directory.person WHERE username = ?")) {
            s.setString(1, username);
            try (ResultSet r = s.executeQuery()) {
                assertTrue(r.next());
                assertTrue(r.getString(1).startsWith("$argon2id$v=19$m=19456,t=2,p=1$"), r.getString(1));
            }
        }
    }

    @Test
    void invalidSignUpsAre422sNamingTheField() {
        for (String bad : new String[] {"Alice", "-alice", "alice-", "al ice", "a".repeat(40), "people", "oauth",
                "internal", "ali_ce", "ünïcode", ""}) {
            given().contentType("application/json").body(signUpBody(bad)).post("/people")
                    .then().statusCode(422).contentType("application/problem+json")
                    .body("errors.field", org.hamcrest.Matchers.hasItem("username"));
        }
        Map<String, Object> shortPassword = signUpBody(uniqueName("bob"));
        shortPassword.put("password", "short");
        given().contentType("application/json").body(shortPassword).post("/people")
                .then().statusCode(422).body("errors[0].field", equalTo("password"));
        Map<String, Object> longPassword = signUpBody(uniqueName("bob"));
        longPassword.put("password", "x".repeat(129));
        given().contentType("application/json").body(longPassword).post("/people")
                .then().statusCode(422).body("errors[0].field", equalTo("password"));
        Map<String, Object> badEmail = signUpBody(uniqueName("bob"));
        badEmail.put("email", "not-an-address");
        given().contentType("application/json").body(badEmail).post("/people")
                .then().statusCode(422).body("errors[0].field", equalTo("email"));
        Map<String, Object> controlName = signUpBody(uniqueName("bob"));
        controlName.put("display_name", "bad\u0000name");
        given().contentType("application/json").body(controlName).post("/people")
                .then().statusCode(422).body("errors[0].field", equalTo("display_name"));
    }

    @Test
    void malformedSignUpsAre400s() {
        given().contentType("application/json").body("{\"username\":").post("/people").then().statusCode(400)
                .contentType("application/problem+json");
        given().contentType("application/json").body("{\"username\": 5, \"password\": []}").post("/people")
                .then().statusCode(400).contentType("application/problem+json");
        given().contentType("application/json").body("[]").post("/people").then().statusCode(400);
        given().contentType("application/json").post("/people").then().statusCode(400);
        given().contentType("text/plain").body("alice").post("/people").then().statusCode(415);
    }

    /** The outbox's mails where {@code where} (one parameter) holds: kind, recipient and body of each, in order. */
    private static List<String> mails(String where, Object value) throws Exception {
        List<String> mails = new java.util.ArrayList<>();
        try (Connection c = ServiceDatabase.connect();
                PreparedStatement s = c.prepareStatement("SELECT kind, recipient, body FROM directory.mail_outbox WHERE "
                        + where + " ORDER BY id")) {
            s.setObject(1, value);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    mails.add(r.getString(1) + " " + r.getString(2).toLowerCase() + " " + r.getString(3).replace('\n', ' '));
                }
            }
        }
        return mails;
    }

    /**
     * A taken name is a 409 (it is public: every namespace resolves). A taken address is not said
     * (the review's finding: 409 "exists already" told anyone which addresses have an account): the
     * sign-up is answered as for a new address, and the address's owner is mailed instead, at most
     * 4 times a window in tests (then silently not).
     */
    @Test
    void aTakenNameIs409ButATakenAddressIsAnsweredAsANewOne() throws Exception {
        Person first = signUp("carol");
        given().contentType("application/json").body(signUpBody(first.username())).post("/people")
                .then().statusCode(409).contentType("application/problem+json");

        String fresh = uniqueName("carol");
        Response created = given().contentType("application/json").body(signUpBody(fresh)).post("/people");
        created.then().statusCode(201);
        String taken = uniqueName("carol");
        Map<String, Object> sameEmail = signUpBody(taken);
        sameEmail.put("email", first.email().toUpperCase());
        Response answered = given().contentType("application/json").body(sameEmail).post("/people");
        answered.then().statusCode(201).contentType(created.contentType())
                .header("Location", endsWith("/people/" + taken))
                .body("username", equalTo(taken)).body("display_name", equalTo("Someone")).body("type", equalTo("User"));
        assertEquals(created.jsonPath().getMap("$").keySet(), answered.jsonPath().getMap("$").keySet());
        assertTrue(answered.jsonPath().getLong("id") > created.jsonPath().getLong("id"), "an id of the same sequence");
        // Nobody was made, and nothing went to the address but the notice to its owner.
        try (Connection c = ServiceDatabase.connect();
                PreparedStatement s = c.prepareStatement("SELECT count(*) FROM directory.person WHERE username = ?")) {
            s.setString(1, taken);
            try (ResultSet r = s.executeQuery()) {
                assertTrue(r.next());
                assertEquals(0, r.getLong(1));
            }
        }
        List<String> owners = mails("person_id = ?", first.id());
        assertEquals(2, owners.size(), owners.toString());
        assertTrue(owners.get(0).startsWith("email_verification " + first.email()), owners.toString());
        assertTrue(owners.get(1).startsWith("sign_up_attempt " + first.email()), owners.toString());
        assertTrue(owners.get(1).contains("It already belongs to your account " + first.username()), owners.get(1));
        assertTrue(!owners.get(1).contains(taken), "the notice repeats nothing the stranger typed: " + owners.get(1));

        for (int i = 0; i < 5; i++) {
            Map<String, Object> again = signUpBody(uniqueName("carol"));
            again.put("email", first.email());
            given().contentType("application/json").body(again).post("/people").then().statusCode(201);
        }
        assertEquals(4, mails("person_id = ? AND kind = 'sign_up_attempt'", first.id()).size(),
                "at most 4 notices a window (tests)");
    }

    @Test
    void aPersonIsReadByUsernameWithoutEmail() {
        Person dave = signUp("dave");
        given().get("/people/" + dave.username()).then().statusCode(200)
                .body("id", equalTo((int) dave.id()))
                .body("username", equalTo(dave.username()))
                .body("display_name", equalTo("Dr. dave"))
                .body("$", not(hasKey("email")));
        // Names are compared without regard to case.
        given().get("/people/" + dave.username().toUpperCase()).then().statusCode(200)
                .body("username", equalTo(dave.username()));
        given().get("/people/nobody-" + dave.username()).then().statusCode(404).contentType("application/problem+json");
    }

    @Test
    void peopleAreListedInSignUpOrderWithPaging() {
        Person a = signUp("list");
        Person b = signUp("list");
        Person c = signUp("list");
        int total = given().get("/people?per_page=1").then().statusCode(200)
                .header("Link", containsString("rel=\"next\""))
                .extract().header("X-Total-Count") == null ? -1
                : Integer.parseInt(given().get("/people?per_page=1").header("X-Total-Count"));
        assertTrue(total >= 3);
        // Every page, in order: the new people are wherever sign-up order puts them (other tests sign up too).
        List<String> names = new java.util.ArrayList<>();
        for (int page = 1; page <= 100; page++) {
            List<String> onPage = given().get("/people?per_page=100&page=" + page).then().statusCode(200)
                    .extract().jsonPath().getList("username");
            names.addAll(onPage);
            if (onPage.size() < 100) {
                break;
            }
        }
        List<String> ours = names.stream().filter(n -> n.equals(a.username()) || n.equals(b.username())
                || n.equals(c.username())).toList();
        assertEquals(List.of(a.username(), b.username(), c.username()), ours);
        given().get("/people?per_page=0").then().statusCode(400);
        given().get("/people?page=x").then().statusCode(400);
    }

    @Test
    void theCurrentUserNeedsAToken() {
        given().get("/user").then().statusCode(401).contentType("application/problem+json");
        Person erin = signUp("erin");
        as(erin, "public").get("/user").then().statusCode(200)
                .body("username", equalTo(erin.username()))
                .body("$", hasKey("email"))
                .body("email", nullValue())
                .body("$", not(hasKey("private_email")))
                .body("$", not(hasKey("two_factor_authentication")));
        as(erin, "user").get("/user").then().statusCode(200)
                .body("email", nullValue())
                .body("private_email", equalTo(erin.email()))
                .body("two_factor_authentication", equalTo(false));
        // A valid token for a person who does not exist.
        as(new Person(987_654_321L, "ghost", "g@example.org"), "user").get("/user").then().statusCode(401);
    }

    @Test
    void theProfileChangesWithTheUserScope() throws Exception {
        Person fay = signUp("fay");
        as(fay, "public").contentType("application/json").body(Map.of("display_name", "Fay"))
                .patch("/user").then().statusCode(403);
        // Only the sign-in address, once proven, may be public: not another one, not an unproven one.
        as(fay, "user").contentType("application/json")
                .body(Map.of("display_name", "Fay Ng", "email", "fay.public@example.org"))
                .patch("/user").then().statusCode(422).body("errors[0].field", equalTo("email"));
        as(fay, "user").contentType("application/json").body(Map.of("email", fay.email()))
                .patch("/user").then().statusCode(422).body("errors[0].field", equalTo("email"));
        verified(fay);
        as(fay, "user").contentType("application/json")
                .body(Map.of("display_name", "Fay Ng", "email", fay.email().toUpperCase()))
                .patch("/user").then().statusCode(200)
                .body("display_name", equalTo("Fay Ng"))
                .body("email", equalTo(fay.email().toUpperCase()));
        as(fay, "public").get("/user").then().body("email", equalTo(fay.email().toUpperCase()));
        // The public address is for authenticated callers only.
        given().get("/people/" + fay.username()).then().body("$", not(hasKey("email")));
        as(fay, "user").contentType("application/json").body("{\"email\": null}")
                .patch("/user").then().statusCode(200).body("email", nullValue()).body("display_name", equalTo("Fay Ng"));
        as(fay, "user").contentType("application/json").body(Map.of("email", "nope"))
                .patch("/user").then().statusCode(422).body("errors[0].field", equalTo("email"));
        as(fay, "user").contentType("application/json").body(Map.of("display_name", 7))
                .patch("/user").then().statusCode(422).body("errors[0].field", equalTo("display_name"));
        as(fay, "user").contentType("application/json").body("[1]").patch("/user").then().statusCode(400);
        as(fay, "user").contentType("application/json").body("{").patch("/user").then().statusCode(400);
    }

    /** A public address stored before the rule, or no longer proven, is not shown. */
    @Test
    void anUnprovenPublicAddressIsNotShown() throws Exception {
        Person hal = signUp("hal");
        try (Connection c = ServiceDatabase.connect();
                PreparedStatement s = c.prepareStatement("UPDATE directory.person SET public_email = ? WHERE id = ?")) {
            s.setString(1, hal.email());
            s.setLong(2, hal.id());
            assertEquals(1, s.executeUpdate());
        }
        as(hal, "user").get("/user").then().statusCode(200).body("email", nullValue());
        verified(hal);
        as(hal, "user").get("/user").then().statusCode(200).body("email", equalTo(hal.email()));
    }

    /** Marks the person's sign-in address proven, as following its mailed link does (EmailVerificationTest). */
    static void verified(Person person) throws Exception {
        try (Connection c = ServiceDatabase.connect();
                PreparedStatement s = c.prepareStatement("UPDATE directory.person SET email_verified_at = now() WHERE id = ?")) {
            s.setLong(1, person.id());
            assertEquals(1, s.executeUpdate());
        }
    }

    @Test
    void avatarsAreGeneratedUntilUploaded() throws Exception {
        Person gus = signUp("gus");
        String thumb = given().get("/people/" + gus.username()).then().extract().path("image_thumb_50");
        assertTrue(thumb.startsWith("http"), thumb);
        byte[] generated = given().get("/people/" + gus.username() + "/avatar").then().statusCode(200)
                .contentType("image/png").header("Cache-Control", containsString("max-age"))
                .extract().asByteArray();
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(generated));
        assertEquals(50, image.getWidth());
        assertArrayEquals(generated, given().get("/people/" + gus.username() + "/avatar").asByteArray(),
                "the default avatar is deterministic");

        BufferedImage upload = new BufferedImage(64, 64, BufferedImage.TYPE_INT_RGB);
        upload.setRGB(3, 3, 0xFF0000);
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        ImageIO.write(upload, "png", png);
        as(gus, "public").contentType("image/png").body(png.toByteArray()).put("/user/avatar").then().statusCode(403);
        String newThumb = as(gus, "user").contentType("image/png").body(png.toByteArray()).put("/user/avatar")
                .then().statusCode(200).extract().path("image_thumb_50");
        assertNotNull(newThumb);
        assertArrayEquals(png.toByteArray(), given().get("/people/" + gus.username() + "/avatar").then()
                .contentType("image/png").extract().asByteArray());

        as(gus, "user").contentType("image/png").body("GIF89a not an image".getBytes()).put("/user/avatar")
                .then().statusCode(422).body("errors[0].field", equalTo("avatar"));
        as(gus, "user").contentType("image/png").body(new byte[1_100_000]).put("/user/avatar")
                .then().statusCode(413).contentType("application/problem+json");
        given().get("/people/nobody-" + gus.username() + "/avatar").then().statusCode(404);
    }

    @Test
    void urlsFollowThePublicBase() {
        Person hal = signUp("hal");
        Response response = given().header("X-Forwarded-Proto", "https").header("X-Forwarded-Host", "data.example.org")
                .header("X-Forwarded-Prefix", "/api").get("/people/" + hal.username());
        response.then().statusCode(200)
                .body("url", equalTo("https://data.example.org/api/people/" + hal.username()))
                .body("html_url", equalTo("https://data.example.org/" + hal.username()))
                .body("image_thumb_50", startsWith("https://data.example.org/api/people/" + hal.username() + "/avatar"));
    }
}
