package org.ziggurat.directory.identities;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.ziggurat.directory.DirectoryTestSupport.Person;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ziggurat.directory.DirectoryTestSupport.as;
import static org.ziggurat.directory.DirectoryTestSupport.asService;
import static org.ziggurat.directory.DirectoryTestSupport.signUp;
import static org.ziggurat.directory.DirectoryTestSupport.uniqueName;

/**
 * Identities of other providers: who one signs in, new accounts made with one, links only for a
 * person auth-service signed in (never by a matching address), the last way to sign in kept, and
 * the research claims that memberships and links make.
 */
@QuarkusTest
class LinkedIdentitiesTest {

    private static final String RAF = "https://refeds.org/assurance/IAP/medium";

    @Inject
    Pool pool;

    private static Map<String, Object> identity(String provider, String subject, String email, boolean verified) {
        Map<String, Object> identity = new HashMap<>();
        identity.put("provider", provider);
        identity.put("subject", subject);
        identity.put("display_name", email);
        identity.put("email", email);
        identity.put("email_verified", verified);
        identity.put("assurance", List.of("https://refeds.org/assurance", RAF));
        return identity;
    }

    private static ValidatableResponse signIn(Map<String, Object> identity) {
        return asService("auth-service").contentType("application/json").body(identity).post("/internal/identity-sign-ins").then();
    }

    private static ValidatableResponse newAccount(String username, String email, Map<String, Object> identity) {
        return asService("auth-service").contentType("application/json")
                .body(Map.of("username", username, "display_name", "Ada Upstream", "email", email, "identity", identity))
                .post("/internal/identity-sign-ups").then();
    }

    private static ValidatableResponse link(long personId, Map<String, Object> identity) {
        return asService("auth-service").contentType("application/json")
                .body(Map.of("identity", identity, "client_address", "192.0.2.7"))
                .post("/internal/people/" + personId + "/identities").then();
    }

    private long count(String sql, long personId) {
        return pool.preparedQuery(sql).execute(Tuple.of(personId)).await().atMost(Duration.ofSeconds(10)).iterator().next()
                .getLong(0);
    }

    @Test
    void aNewAccountConfirmsOnlyTheAddressTheProviderVerified() {
        String subject = uniqueName("sub");
        String username = uniqueName("fed");
        String address = username + "@uni.example";
        int id = newAccount(username, address, identity("institution", subject, address, true)).statusCode(201)
                .body("username", equalTo(username)).body("email_verified", is(true)).extract().path("id");
        assertEquals(0, count("SELECT count(*) FROM mail_outbox WHERE person_id = $1", id), "no link to prove it");
        signIn(identity("institution", subject, address, true)).statusCode(200).body("person_id", equalTo(id))
                .body("username", equalTo(username)).body("second_factor_due", is(false));
        // No password: a password check of the account fails like a wrong one.
        asService("auth-service").contentType("application/json").body(Map.of("login", username, "password", "anything at all"))
                .post("/internal/passwords/verify").then().statusCode(401);
        assertEquals(1, count("SELECT count(*) FROM account_event WHERE person_id = $1 AND kind = 'identity_linked'", id));

        // Another address than the verified one is proven by mail, as at sign-up.
        String other = uniqueName("fed");
        int second = newAccount(other, other + "@elsewhere.example", identity("institution", uniqueName("sub"),
                        other + "@uni.example", true)).statusCode(201).body("email_verified", is(false)).extract().path("id");
        assertEquals(1, count("SELECT count(*) FROM mail_outbox WHERE person_id = $1 AND kind = 'email_verification'", second));

        // Taken: the username, the identity; bad fields are named.
        newAccount(username, uniqueName("x") + "@uni.example", identity("institution", uniqueName("sub"), null, false))
                .statusCode(409);
        newAccount(uniqueName("fed"), uniqueName("x") + "@uni.example", identity("institution", subject, null, false))
                .statusCode(409).body("detail", equalTo("This identity is linked to another account already."));
        newAccount(uniqueName("fed"), uniqueName("x") + "@uni.example", identity("Bad Provider!", uniqueName("s"), null, false))
                .statusCode(422).body("errors[0].field", equalTo("provider"));
        Map<String, Object> badOrcid = identity("orcid", uniqueName("s"), null, false);
        badOrcid.put("orcid", "0000-0002");
        newAccount(uniqueName("fed"), uniqueName("x") + "@uni.example", badOrcid).statusCode(422)
                .body("errors[0].field", equalTo("orcid"));
        newAccount("-bad-", uniqueName("x") + "@uni.example", identity("institution", uniqueName("s"), null, false))
                .statusCode(422);
        // People never call it: only a service's token.
        as(new Person(id, username, address), "admin").contentType("application/json")
                .body(Map.of("username", uniqueName("fed"), "email", "x@uni.example", "identity",
                        identity("institution", uniqueName("s"), null, false)))
                .post("/internal/identity-sign-ups").then().statusCode(403);
    }

    @Test
    void aMatchingAddressLinksNothingAndAnIdentityBelongsToOnePerson() {
        Person owner = signUp("owner");
        Person other = signUp("other");
        String subject = uniqueName("sub");
        // The provider says it verified the owner's address: still no one's identity.
        signIn(identity("institution", subject, owner.email(), true)).statusCode(404);

        link(owner.id(), identity("institution", subject, owner.email(), true)).statusCode(201);
        link(owner.id(), identity("institution", subject, owner.email(), true)).statusCode(200);
        link(other.id(), identity("institution", subject, owner.email(), true)).statusCode(409);
        link(999_999_999L, identity("institution", uniqueName("sub"), null, false)).statusCode(404);
        signIn(identity("institution", subject, "changed@uni.example", false)).statusCode(200)
                .body("person_id", equalTo((int) owner.id()));
        // The same subject at another provider is another identity.
        signIn(identity("github", subject, null, false)).statusCode(404);

        as(owner, "account").get("/user/identities").then().statusCode(200).body("", hasSize(1))
                .body("[0].provider", equalTo("institution")).body("[0].subject", equalTo(subject))
                .body("[0].email", equalTo("changed@uni.example")).body("[0].email_verified", is(false))
                .body("[0].assurance", hasItem(RAF));
        as(owner, "user").get("/user/identities").then().statusCode(403);
        assertEquals(1, count("SELECT count(*) FROM account_event WHERE person_id = $1 AND kind = 'identity_linked' "
                + "AND client_address = '192.0.2.7'", owner.id()));
    }

    @Test
    void theLastWayToSignInStays() {
        String username = uniqueName("fed");
        int id = newAccount(username, username + "@uni.example", identity("institution", uniqueName("sub"), null, false))
                .statusCode(201).extract().path("id");
        Person person = new Person(id, username, username + "@uni.example");
        int first = as(person, "account").get("/user/identities").then().extract().path("[0].id");
        as(person, "account").delete("/user/identities/" + first).then().statusCode(409);
        asService("auth-service").delete("/internal/people/" + id + "/identities/" + first).then().statusCode(409);

        link(id, identity("github", uniqueName("sub"), null, false)).statusCode(201);
        as(person, "account").delete("/user/identities/" + first).then().statusCode(204);
        as(person, "account").get("/user/identities").then().body("provider", contains("github"));
        as(person, "account").delete("/user/identities/" + first).then().statusCode(404);
        int second = as(person, "account").get("/user/identities").then().extract().path("[0].id");
        as(person, "user").delete("/user/identities/" + second).then().statusCode(403);
        as(person, "account").delete("/user/identities/" + second).then().statusCode(409);
        // Someone else's link is not found, whatever its id.
        Person stranger = signUp("stranger");
        as(stranger, "account").delete("/user/identities/" + second).then().statusCode(404);
        as(stranger, "account").delete("/user/identities/nope").then().statusCode(404); // no such id, as everywhere

        // A person with a password may remove every link.
        Person withPassword = signUp("haspassword");
        link(withPassword.id(), identity("orcid", uniqueName("sub"), null, false)).statusCode(201);
        int only = as(withPassword, "account").get("/user/identities").then().extract().path("[0].id");
        as(withPassword, "account").delete("/user/identities/" + only).then().statusCode(204);
        assertEquals(1, count("SELECT count(*) FROM account_event WHERE person_id = $1 AND kind = 'identity_unlinked'",
                withPassword.id()));
    }

    @Test
    void theOwnSecondFactorIsDueAfterAProviderUnlessThePersonTurnsItOff() {
        Person person = signUp("factor");
        String subject = uniqueName("sub");
        link(person.id(), identity("institution", subject, null, false)).statusCode(201);
        // A new way into the account: in the security log, and mailed to the person with what it was.
        assertEquals(1, count("SELECT count(*) FROM mail_outbox WHERE person_id = $1 AND kind = 'identity_linked' "
                + "AND body LIKE '%institution: %' AND body LIKE '%192.0.2.7%'", person.id()));
        signIn(identity("institution", subject, null, false)).body("second_factor_due", is(false));
        asService("auth-service").contentType("application/json")
                // Base64url whatever the id ("Y3JlZC0" + a two-digit id is none: a 422).
                .body(Map.of("credential_id", java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                                ("cred-" + person.id()).getBytes(java.nio.charset.StandardCharsets.UTF_8)), "public_key", "pQECAyYgASFYIA", "sign_count", 0,
                        "uv_initialized", true, "backup_eligible", false, "name", "Key", "client_address", "192.0.2.1"))
                .post("/internal/people/" + person.id() + "/passkeys").then().statusCode(201);
        signIn(identity("institution", subject, null, false)).body("second_factor_due", is(true)).body("second_factor", is(true));
        asService("auth-service").get("/internal/people/" + person.id() + "/upstream-settings").then()
                .body("second_factor_after_upstream", is(true));
        asService("auth-service").contentType("application/json").body(Map.of("second_factor_after_upstream", false))
                .put("/internal/people/" + person.id() + "/upstream-settings?client_address=192.0.2.9").then().statusCode(204);
        signIn(identity("institution", subject, null, false)).body("second_factor_due", is(false));
        // A protection turned off: in the security log with where from, and mailed; saving it again changes nothing.
        assertEquals(1, count("SELECT count(*) FROM account_event WHERE person_id = $1 AND kind = 'upstream_second_factor_off' "
                + "AND client_address = '192.0.2.9'", person.id()));
        assertEquals(1, count("SELECT count(*) FROM mail_outbox WHERE person_id = $1 AND kind = 'upstream_second_factor_off'",
                person.id()));
        asService("auth-service").contentType("application/json").body(Map.of("second_factor_after_upstream", false))
                .put("/internal/people/" + person.id() + "/upstream-settings").then().statusCode(204);
        assertEquals(1, count("SELECT count(*) FROM account_event WHERE person_id = $1 AND kind = 'upstream_second_factor_off'",
                person.id()));
        asService("auth-service").contentType("application/json").body(Map.of())
                .put("/internal/people/" + person.id() + "/upstream-settings").then().statusCode(422);
        asService("auth-service").get("/internal/people/999999999/upstream-settings").then().statusCode(404);
    }

    @Test
    void researchClaimsComeFromMembershipsAndLinks() {
        Person admin = signUp("research");
        String org = uniqueName("lab");
        as(admin, "admin").contentType("application/json").body(Map.of("name", org, "display_name", "Lab", "visibility", "public"))
                .post("/organizations").then().statusCode(201);
        asService("auth-service").get("/internal/people/" + admin.id() + "/claims").then().statusCode(200)
                .body("research", nullValue());
        Map<String, Object> orcid = identity("orcid", "0000-0002-1825-0097", null, false);
        orcid.put("orcid", "0000-0002-1825-0097");
        link(admin.id(), orcid).statusCode(201);
        String ns = "urn:geant:example.org:ziggurat";
        asService("auth-service").get("/internal/people/" + admin.id() + "/claims?research=true").then().statusCode(200)
                .body("research.entitlements", contains(ns + ":group:" + org + "#example.org",
                        ns + ":group:" + org + ":role=admin#example.org"))
                .body("research.orcid", equalTo("0000-0002-1825-0097"))
                .body("research.assurance", contains("https://refeds.org/assurance", RAF))
                .body("research.voperson_id", equalTo(admin.id() + "@example.org"));
        asService("auth-service").get("/internal/people/" + admin.id() + "/claims?research=maybe").then().statusCode(400);
    }
}
