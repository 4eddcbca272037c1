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

    private static ValidatableResponse confirm(String token) {
        return asService("auth-service").contentType("application/json").body(Map.of("token", token))
                .post("/internal/identity-sign-up-confirmations").then();
    }

    /** The token of the link mailed to make an account at {@code address}. */
    private String signUpToken(String address) {
        String body = pool.preparedQuery("SELECT body FROM mail_outbox WHERE recipient = $1 AND kind = 'identity_sign_up' "
                        + "ORDER BY id DESC LIMIT 1").execute(Tuple.of(address)).await().atMost(Duration.ofSeconds(10))
                .iterator().next().getString(0);
        java.util.regex.Matcher link = java.util.regex.Pattern.compile("/account/federation/confirmation\\?token=(\\S+)").matcher(body);
        org.junit.jupiter.api.Assertions.assertTrue(link.find(), body);
        return java.net.URLDecoder.decode(link.group(1), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** A new ORCID iD for this test (the directory checks the form; ORCID's checksum is auth-service's). */
    private static String orcidId() {
        long n = java.util.concurrent.ThreadLocalRandom.current().nextLong(1_000_000_000_000_000L);
        String digits = String.format("%016d", n);
        return digits.substring(0, 4) + "-" + digits.substring(4, 8) + "-" + digits.substring(8, 12) + "-" + digits.substring(12);
    }

    private long countText(String sql, String value) {
        return pool.preparedQuery(sql).execute(Tuple.of(value)).await().atMost(Duration.ofSeconds(10)).iterator().next()
                .getLong(0);
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

        // Another address than the verified one is proven before the account exists: a link goes
        // there (202), nothing is made, and the account comes with the link, its address confirmed.
        String other = uniqueName("fed");
        String otherSubject = uniqueName("sub");
        newAccount(other, other + "@elsewhere.example", identity("institution", otherSubject, other + "@uni.example", true))
                .statusCode(202).body("confirmation_mailed", is(true)).body("id", equalTo(0));
        assertEquals(0, countText("SELECT count(*) FROM person WHERE username = $1", other));
        signIn(identity("institution", otherSubject, other + "@uni.example", true)).statusCode(404);
        String token = signUpToken(other + "@elsewhere.example");
        confirm(token).statusCode(201).body("username", equalTo(other)).body("email_verified", is(true));
        confirm(token).statusCode(410);
        confirm("not-a-token").statusCode(410);
        signIn(identity("institution", otherSubject, other + "@uni.example", true)).statusCode(200)
                .body("username", equalTo(other));

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
        int id = newAccount(username, username + "@uni.example", identity("institution", uniqueName("sub"),
                username + "@uni.example", true)).statusCode(201).extract().path("id");
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
        String iD = orcidId();
        Map<String, Object> orcid = identity("orcid", iD, null, false);
        orcid.put("orcid", iD);
        link(admin.id(), orcid).statusCode(201);
        String ns = "urn:geant:example.org:ziggurat";
        // No assurance from here: what a provider asserted at some sign-in is not re-asserted (auth-service
        // passes on the current sign-in's own).
        asService("auth-service").get("/internal/people/" + admin.id() + "/claims?research=true").then().statusCode(200)
                .body("research.entitlements", contains(ns + ":group:" + org + "#example.org",
                        ns + ":group:" + org + ":role=admin#example.org"))
                .body("research.orcid", equalTo(iD))
                .body("research.assurance", hasSize(0))
                .body("research.voperson_id", equalTo(admin.id() + "@example.org"));
        asService("auth-service").get("/internal/people/" + admin.id() + "/claims?research=maybe").then().statusCode(400);
    }

    @Test
    void anAddressNobodyProvedTakesNoAccountAndLinksNoIdentity() {
        // Pre-account takeover: someone's identity at a provider that verified no address, another's address typed.
        String victim = uniqueName("victim");
        String address = victim + "@victim.example";
        String subject = uniqueName("attacker");
        newAccount(uniqueName("fed"), address, identity("institution", subject, null, false)).statusCode(202);
        assertEquals(0, countText("SELECT count(*) FROM person WHERE lower(email) = lower($1)", address), "no account has it");
        // The address's owner signs up as anyone does: the address is free, the account is theirs.
        io.restassured.RestAssured.given().contentType("application/json")
                .body(Map.of("username", victim, "password", "correct horse battery", "email", address, "display_name", "V"))
                .post("/people").then().statusCode(201);
        assertEquals(1, countText("SELECT count(*) FROM person WHERE lower(email) = lower($1) AND username = '" + victim + "'",
                address));
        // What the attacker's link would make can be read before anything is (the page shows it), and a
        // link that is no good is 410.
        String attackersLink = signUpToken(address);
        asService("auth-service").contentType("application/json").body(Map.of("token", attackersLink))
                .post("/internal/identity-sign-up-lookups").then().statusCode(200).body("email", equalTo(address))
                .body("provider", equalTo("institution"));
        asService("auth-service").contentType("application/json").body(Map.of("token", "not-a-token"))
                .post("/internal/identity-sign-up-lookups").then().statusCode(410);
        asService("events-service").contentType("application/json").body(Map.of("token", attackersLink))
                .post("/internal/identity-sign-up-lookups").then().statusCode(403);
        // The attacker's link, used later, makes nothing: the address is an account's now.
        confirm(attackersLink).statusCode(409);
        // Asked again for the account's address, the answer is as for a free one (it tells nobody the address
        // has an account); nothing is held, and the owner is told instead.
        newAccount(uniqueName("fed"), address, identity("institution", uniqueName("attacker"), null, false)).statusCode(202)
                .body("confirmation_mailed", is(true));
        assertEquals(1, countText("SELECT count(*) FROM identity_sign_up WHERE lower(email) = lower($1) AND used_at IS NULL",
                address), "nothing waits for a link");
        assertEquals(1, countText("SELECT count(*) FROM mail_outbox WHERE kind = 'identity_sign_up_taken' "
                + "AND lower(recipient) = lower($1)", address));
        signIn(identity("institution", subject, null, false)).statusCode(404);
        // Links to one address are limited (the attacker cannot flood it).
        String flooded = uniqueName("flood") + "@victim.example";
        for (int i = 0; i < 5; i++) {
            newAccount(uniqueName("fed"), flooded, identity("institution", uniqueName("s"), null, false)).statusCode(202);
        }
        newAccount(uniqueName("fed"), flooded, identity("institution", uniqueName("s"), null, false)).statusCode(429);
        // And the links one identity at the provider sends, to whatever addresses; words the provider or its user
        // chose (the identity's name there) are in none of them.
        Map<String, Object> sender = identity("institution", uniqueName("sender"), null, false);
        sender.put("display_name", "Your bank: call +1 555 0100 now");
        for (int i = 0; i < 5; i++) {
            newAccount(uniqueName("fed"), uniqueName("to") + "@victim.example", sender).statusCode(202);
        }
        newAccount(uniqueName("fed"), uniqueName("to") + "@victim.example", sender).statusCode(429);
        // Counted alike for an account's address (the limit tells nothing of which addresses have accounts).
        Map<String, Object> prober = identity("institution", uniqueName("prober"), null, false);
        for (int i = 0; i < 4; i++) {
            newAccount(uniqueName("fed"), uniqueName("to") + "@victim.example", prober).statusCode(202);
        }
        newAccount(uniqueName("fed"), address, prober).statusCode(202);
        newAccount(uniqueName("fed"), uniqueName("to") + "@victim.example", prober).statusCode(429);
        assertEquals(0, countText("SELECT count(*) FROM mail_outbox WHERE kind = 'identity_sign_up' AND body LIKE $1",
                "%Your bank%"));
    }

    @Test
    void theFirstRecoveryLinkOfAnAccountNobodyProvedRemovesEveryWayInThatPredatesIt() {
        // An account whose address was never confirmed (as one made with another's address would be),
        // with a second factor, a passkey, recovery codes and a linked identity that its maker set up.
        Person made = signUp("unproven");
        link(made.id(), identity("institution", uniqueName("sub"), null, false)).statusCode(201);
        addPasskey(made.id());
        pool.preparedQuery("INSERT INTO totp_factor (person_id, secret_sealed, confirmed_at) VALUES ($1, '\\x00', now())")
                .execute(Tuple.of(made.id())).await().atMost(Duration.ofSeconds(10));
        pool.preparedQuery("INSERT INTO recovery_code (person_id, code_hash) VALUES ($1, '\\x01')")
                .execute(Tuple.of(made.id())).await().atMost(Duration.ofSeconds(10));
        reset(made.id()).statusCode(200);
        assertEquals(0, count("SELECT count(*) FROM linked_identity WHERE person_id = $1", made.id()));
        assertEquals(0, count("SELECT count(*) FROM passkey WHERE person_id = $1", made.id()));
        assertEquals(0, count("SELECT count(*) FROM totp_factor WHERE person_id = $1", made.id()));
        assertEquals(0, count("SELECT count(*) FROM recovery_code WHERE person_id = $1", made.id()));
        assertEquals(1, count("SELECT count(*) FROM account_event WHERE person_id = $1 AND kind = 'unproven_access_removed'",
                made.id()));
        assertEquals(1, count("SELECT count(*) FROM mail_outbox WHERE person_id = $1 AND kind = 'unproven_access_removed'",
                made.id()));
        // The link proved the account its owner's: what they set up afterwards stays at the next recovery.
        link(made.id(), identity("institution", uniqueName("sub"), null, false)).statusCode(201);
        reset(made.id()).statusCode(200);
        assertEquals(1, count("SELECT count(*) FROM linked_identity WHERE person_id = $1", made.id()));

        // With nothing but the password set up, it is still said (and events-service, which follows the
        // event in the audit stream, stops the webhooks its maker set up).
        Person bare = signUp("bare");
        reset(bare.id()).statusCode(200);
        assertEquals(1, count("SELECT count(*) FROM account_event WHERE person_id = $1 AND kind = 'unproven_access_removed' "
                + "AND detail LIKE '%webhooks made before%'", bare.id()));

        // An account whose address was confirmed keeps its ways in (its second factor is still asked).
        Person proven = signUp("proven");
        pool.preparedQuery("UPDATE person SET email_verified_at = now() WHERE id = $1").execute(Tuple.of(proven.id()))
                .await().atMost(Duration.ofSeconds(10));
        link(proven.id(), identity("institution", uniqueName("sub"), null, false)).statusCode(201);
        addPasskey(proven.id());
        reset(proven.id()).statusCode(200);
        assertEquals(1, count("SELECT count(*) FROM linked_identity WHERE person_id = $1", proven.id()));
        assertEquals(1, count("SELECT count(*) FROM passkey WHERE person_id = $1", proven.id()));
        assertEquals(0, count("SELECT count(*) FROM account_event WHERE person_id = $1 AND kind = 'unproven_access_removed'",
                proven.id()));

        // Proven once, then moved to an address nobody proved (one who took an account over and put another's
        // address on it, then added a way in): the recovery through that address removes it.
        Person moved = signUp("moved");
        pool.preparedQuery("UPDATE person SET email_verified_at = now() WHERE id = $1").execute(Tuple.of(moved.id()))
                .await().atMost(Duration.ofSeconds(10));
        as(moved, "user", "account").contentType("application/json")
                .body(Map.of("email", uniqueName("elsewhere") + "@example.org", "password", "correct horse battery"))
                .put("/user/email").then().statusCode(200);
        addPasskey(moved.id());
        reset(moved.id()).statusCode(200);
        assertEquals(0, count("SELECT count(*) FROM passkey WHERE person_id = $1", moved.id()));
    }

    /** A credential id (base64url, as WebAuthn's). */
    private static String credentialId(String seed) {
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(seed.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private static void addPasskey(long personId) {
        asService("auth-service").contentType("application/json")
                .body(Map.of("credential_id", credentialId(uniqueName("cred-" + personId)), "public_key", "pQECAyYgASFYIA",
                        "sign_count", 0, "uv_initialized", true, "backup_eligible", false, "name", "Key",
                        "client_address", "192.0.2.1"))
                .post("/internal/people/" + personId + "/passkeys").then().statusCode(201);
    }

    /** A recovery link of the person, used: the answer to setting the password with it. */
    private ValidatableResponse reset(long personId) {
        String token = org.ziggurat.directory.people.EmailTokens.newToken();
        pool.preparedQuery("INSERT INTO password_recovery (token_hash, person_id, expires_at) VALUES ($1, $2, now() + interval '30 minutes')")
                .execute(Tuple.of(io.vertx.core.buffer.Buffer.buffer(org.ziggurat.directory.people.EmailTokens.hash(token)),
                        personId)).await().atMost(Duration.ofSeconds(10));
        return asService("auth-service").contentType("application/json")
                .body(Map.of("token", token, "password", "a new passphrase " + personId, "client_address", "198.51.100.9"))
                .post("/internal/password-resets").then();
    }

    @Test
    void aLinkRecordsItsIssuerAndAnotherIssuersSubjectSignsNobodyIn() {
        Person person = signUp("issuer");
        String subject = uniqueName("sub");
        Map<String, Object> first = identity("institution", subject, null, false);
        first.put("issuer", "https://idp-one.example");
        link(person.id(), first).statusCode(201);
        signIn(first).statusCode(200).body("person_id", equalTo((int) person.id()));
        Map<String, Object> repointed = identity("institution", subject, null, false);
        repointed.put("issuer", "https://idp-two.example");
        signIn(repointed).statusCode(404);
        // Another person may link the other issuer's subject: another identity.
        link(signUp("issuer").id(), repointed).statusCode(201);
        // A link from before links recorded it takes the issuer of its next sign-in, and keeps it.
        Person older = signUp("issuer");
        String olderSubject = uniqueName("sub");
        link(older.id(), identity("institution", olderSubject, null, false)).statusCode(201);
        Map<String, Object> now = identity("institution", olderSubject, null, false);
        now.put("issuer", "https://idp-one.example");
        signIn(now).statusCode(200).body("person_id", equalTo((int) older.id()));
        Map<String, Object> later = identity("institution", olderSubject, null, false);
        later.put("issuer", "https://idp-two.example");
        signIn(later).statusCode(404);
    }

    @Test
    void anOrcidIdIsOnePersonsAndOnlyAsTheCurrentSignInSaysIt() {
        String iD = orcidId();
        Person first = signUp("orcid");
        Person second = signUp("orcid");
        Map<String, Object> byOrcid = identity("orcid", iD, null, false);
        byOrcid.put("orcid", iD);
        link(first.id(), byOrcid).statusCode(201);
        // An institution says the same iD of another person: not kept for them.
        String subject = uniqueName("sub");
        Map<String, Object> claimed = identity("institution", subject, null, false);
        claimed.put("orcid", iD);
        link(second.id(), claimed).statusCode(201);
        signIn(claimed).statusCode(200);
        asService("auth-service").get("/internal/people/" + second.id() + "/claims?research=true").then()
                .body("research.orcid", nullValue());
        asService("auth-service").get("/internal/people/" + first.id() + "/claims?research=true").then()
                .body("research.orcid", equalTo(iD));
        // A sign-in whose provider releases no iD any more: none kept.
        Map<String, Object> without = identity("orcid", iD, null, false);
        signIn(without).statusCode(200);
        asService("auth-service").get("/internal/people/" + first.id() + "/claims?research=true").then()
                .body("research.orcid", nullValue());
    }

    @Test
    void entitlementsNameOnlyTheOrganizationsWhoseOwnApiWouldLetTheSignInIn() {
        Person admin = signUp("strict");
        Person member = signUp("strictmember");
        String strict = uniqueName("strict");
        int org = as(admin, "admin").contentType("application/json")
                .body(Map.of("name", strict, "display_name", "Strict", "visibility", "private"))
                .post("/organizations").then().statusCode(201).extract().path("id");
        pool.preparedQuery("INSERT INTO membership (organization_id, person_id, role, state) VALUES ($1, $2, 'member', 'active')")
                .execute(Tuple.of((long) org, member.id())).await().atMost(Duration.ofSeconds(10));
        pool.preparedQuery("UPDATE organization SET two_factor_required = true WHERE id = $1").execute(Tuple.of((long) org))
                .await().atMost(Duration.ofSeconds(10));
        addPasskey(admin.id());
        String ns = "urn:geant:example.org:ziggurat:group:" + strict;
        asService("auth-service").get("/internal/people/" + admin.id() + "/claims?research=true").then().statusCode(200)
                .body("research.entitlements", hasSize(0));
        asService("auth-service").get("/internal/people/" + admin.id() + "/claims?research=true&second_factor_sign_in=false")
                .then().body("research.entitlements", hasSize(0));
        asService("auth-service").get("/internal/people/" + admin.id() + "/claims?research=true&second_factor_sign_in=true")
                .then().body("research.entitlements", hasItem(ns + "#example.org"));
        // A member without a second factor gets none, whatever the sign-in says.
        asService("auth-service").get("/internal/people/" + member.id() + "/claims?research=true&second_factor_sign_in=true")
                .then().body("research.entitlements", hasSize(0));
        asService("auth-service").get("/internal/people/" + member.id() + "/claims?research=true&second_factor_sign_in=maybe")
                .then().statusCode(400);
    }
}
