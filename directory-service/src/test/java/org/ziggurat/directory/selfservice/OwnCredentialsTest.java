package org.ziggurat.directory.selfservice;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.apache.commons.codec.binary.Base32;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.ziggurat.directory.DirectoryTestSupport.Person;
import org.ziggurat.directory.accountdata.PeersDouble;
import org.ziggurat.directory.factors.TotpRules;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ziggurat.directory.DirectoryTestSupport.as;
import static org.ziggurat.directory.DirectoryTestSupport.asService;
import static org.ziggurat.directory.DirectoryTestSupport.signUp;
import static org.ziggurat.directory.DirectoryTestSupport.uniqueName;

/**
 * The password and second factors through the API: the account scope, the current password with
 * every change; a new password is mailed and owes auth-service a sign-out, delivered once.
 */
@QuarkusTest
class OwnCredentialsTest {

    private static final String PASSWORD = "correct horse battery";

    @Inject
    Pool pool;

    private static int passwordCheck(Person person, String password) {
        return asService("auth-service").contentType("application/json")
                .body(Map.of("login", person.username(), "password", password)).post("/internal/passwords/verify")
                .then().extract().statusCode();
    }

    @Test
    void aNewPasswordNeedsTheCurrentOneAndEndsTheSignInsAtAuth() {
        Person person = signUp("api-password");
        as(person, "user").contentType("application/json").body(Map.of("password", PASSWORD, "new_password", "a new passphrase"))
                .put("/user/password").then().statusCode(403);
        as(person, "account").contentType("application/json").body(Map.of("password", "wrong one", "new_password",
                "a new passphrase")).put("/user/password").then().statusCode(401);
        as(person, "account").contentType("application/json").body(Map.of("password", PASSWORD, "new_password", "short"))
                .put("/user/password").then().statusCode(422);
        as(person, "account").contentType("application/json").body(Map.of("password", PASSWORD)).put("/user/password")
                .then().statusCode(422);
        assertEquals(200, passwordCheck(person, PASSWORD), "nothing changed so far");

        as(person, "account").contentType("application/json").body(Map.of("password", PASSWORD, "new_password",
                "a new passphrase")).put("/user/password").then().statusCode(204);
        assertEquals(401, passwordCheck(person, PASSWORD));
        assertEquals(200, passwordCheck(person, "a new passphrase"));
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> PeersDouble.SIGN_OUTS.contains(person.id())
                && pool.preparedQuery("SELECT count(*) FROM peer_delivery WHERE person_id = $1 AND kind = 'sign_out' "
                        + "AND done_at IS NOT NULL").execute(Tuple.of(person.id())).await().atMost(Duration.ofSeconds(5))
                        .iterator().next().getLong(0) == 1);
        assertEquals(1, PeersDouble.SIGN_OUTS.stream().filter(id -> id == person.id()).count());
        assertEquals(1, pool.preparedQuery("SELECT count(*) FROM mail_outbox WHERE person_id = $1 AND kind = 'password_changed'")
                .execute(Tuple.of(person.id())).await().atMost(Duration.ofSeconds(10)).iterator().next().getLong(0));
    }

    /**
     * The third review's finding: the sign-in address, the export and the deletion took the account
     * token alone, so a leaked token could move the address and then recover the password. Each
     * needs the current password, checked and throttled as PUT /user/password's (one count with
     * it: past it, 429 with Retry-After even for the right one); the export is a POST, since a GET
     * carries no body. An account without a password is sent to the account page.
     */
    @Test
    void theAddressTheExportAndTheDeletionNeedTheCurrentPassword() {
        Person person = signUp("api-confirm");
        String moved = "moved-" + person.email();
        as(person, "account").contentType("application/json").body(Map.of("email", moved)).put("/user/email").then()
                .statusCode(422).body("errors[0].field", equalTo("password"));
        as(person, "account").contentType("application/json").body("{}").post("/user/export").then().statusCode(422)
                .body("errors[0].field", equalTo("password"));
        as(person, "account").contentType("application/json").body("{}").delete("/user?confirm=" + person.username()).then()
                .statusCode(422).body("errors[0].field", equalTo("password"));
        as(person, "account").delete("/user?confirm=" + person.username()).then().statusCode(400);
        as(person, "account").get("/user/export").then().statusCode(405).contentType("application/problem+json")
                .header("Allow", equalTo("POST")).body("detail", containsString("POST /user/export"));

        as(person, "account").contentType("application/json").body(Map.of("email", moved, "password", PASSWORD))
                .put("/user/email").then().statusCode(200).body("changed", is(true));
        as(person, "account").contentType("application/json").body(Map.of("password", PASSWORD)).post("/user/export")
                .then().statusCode(200).body("directory.profile.email", equalTo(moved));

        // Wrong: 401 and nothing happens; the third wrong one (of any of these) fills the count.
        as(person, "account").contentType("application/json").body(Map.of("email", "elsewhere-" + person.email(),
                "password", "not the password")).put("/user/email").then().statusCode(401).contentType("application/problem+json");
        as(person, "account").contentType("application/json").body(Map.of("password", "not the password"))
                .post("/user/export").then().statusCode(401).contentType("application/problem+json");
        as(person, "account").contentType("application/json").body(Map.of("password", "not the password"))
                .delete("/user?confirm=" + person.username()).then().statusCode(401).contentType("application/problem+json");
        as(person, "account").contentType("application/json").body(Map.of("password", PASSWORD))
                .delete("/user?confirm=" + person.username()).then().statusCode(429).contentType("application/problem+json")
                .header("Retry-After", matchesPattern("[1-9][0-9]*"));
        as(person, "account").contentType("application/json").body(Map.of("password", PASSWORD, "new_password",
                "a new passphrase")).put("/user/password").then().statusCode(429).header("Retry-After", matchesPattern("[1-9][0-9]*"));
        as(person, "user").get("/user").then().statusCode(200).body("private_email", equalTo(moved));

        // No password to give (made through another provider): the account page confirms it otherwise.
        String username = uniqueName("api-federated");
        int id = asService("auth-service").contentType("application/json").body(Map.of("username", username,
                        "display_name", "Ada Upstream", "email", username + "@uni.example", "identity", Map.of("provider",
                                "institution", "subject", uniqueName("sub"), "email", username + "@uni.example",
                                "email_verified", true)))
                .post("/internal/identity-sign-ups").then().statusCode(201).extract().path("id");
        Person federated = new Person(id, username, username + "@uni.example");
        as(federated, "account").contentType("application/json").body(Map.of("email", "new-" + federated.email(),
                "password", "anything")).put("/user/email").then().statusCode(403).body("detail", containsString("account page"));
        as(federated, "account").contentType("application/json").body(Map.of("password", "anything")).post("/user/export")
                .then().statusCode(403).body("detail", containsString("account page"));
        as(federated, "account").contentType("application/json").body(Map.of("password", "anything"))
                .delete("/user?confirm=" + username).then().statusCode(403).body("detail", containsString("account page"));
        as(federated, "user").get("/user").then().statusCode(200).body("private_email", equalTo(federated.email()));
    }

    @Test
    void secondFactorsAreReadAndRemovedWithTheAccountScopeAndThePassword() {
        Person person = signUp("api-factors");
        as(person, "user").get("/user/second-factors").then().statusCode(403);
        as(person, "account").get("/user/second-factors").then().statusCode(200)
                .body("two_factor_authentication", is(false)).body("totp", equalTo("none"));
        as(person, "account").contentType("application/json").body(Map.of("password", PASSWORD))
                .post("/user/second-factors/recovery-codes").then().statusCode(409);
        as(person, "account").contentType("application/json").body(Map.of("password", PASSWORD))
                .delete("/user/second-factors/totp").then().statusCode(404);

        String secret = asService("auth-service").post("/internal/people/" + person.id() + "/factors/totp")
                .then().statusCode(201).extract().path("secret");
        byte[] key = new Base32().decode(secret);
        asService("auth-service").contentType("application/json")
                .body(Map.of("person_id", person.id(), "code", TotpRules.codeAt(key, TotpRules.step(Instant.now()))))
                .post("/internal/people/" + person.id() + "/factors/totp/confirmation").then().statusCode(200);
        as(person, "account").get("/user/second-factors").then().statusCode(200)
                .body("two_factor_authentication", is(true)).body("totp", equalTo("enabled"));
        as(person, "account").contentType("application/json").body(Map.of("password", PASSWORD))
                .post("/user/second-factors/recovery-codes").then().statusCode(200).body("recovery_codes", hasSize(10));
        as(person, "account").contentType("application/json").body(Map.of("password", "wrong"))
                .delete("/user/second-factors/totp").then().statusCode(401);
        as(person, "account").contentType("application/json").body("{}").delete("/user/second-factors/totp")
                .then().statusCode(422);
        as(person, "account").contentType("application/json").body(Map.of("password", PASSWORD))
                .delete("/user/second-factors/totp").then().statusCode(204);
        as(person, "account").get("/user/second-factors").then().body("two_factor_authentication", is(false))
                .body("events[0].kind", equalTo("totp_removed"));
        as(person, "account").contentType("application/json").body(Map.of("password", PASSWORD))
                .delete("/user/second-factors/passkeys/987654").then().statusCode(404);
        as(person, "account").contentType("application/json").body(Map.of("password", PASSWORD))
                .delete("/user/second-factors/passkeys/x").then().statusCode(404);
    }
}
