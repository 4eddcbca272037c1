package org.ziggurat.e2e;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.ziggurat.e2e.Platform.as;

/**
 * An organization that requires a second factor, across the services: its member without one
 * keeps the membership but is refused, with a problem that says why, in the organization's
 * vocabularies (vocab-service) and data events (events-service), and is let in after setting one up.
 */
class OrganizationSecondFactorTest {

    /**
     * How long a replica of vocab-service or events-service keeps a namespace's rights
     * (NamespaceDirectory's cache-ttl, 5 s), and a second more: after it, every replica asks again.
     */
    static final Duration RIGHTS_CACHE = Duration.ofSeconds(6);

    @Test
    void aMemberWithoutASecondFactorIsRefusedUntilTheySetOneUp() throws Exception {
        Platform.Person admin = Platform.signUp("strict-admin");
        Platform.Person member = Platform.signUp("strict-member");
        // Tokens first: a person with a second factor no longer gets one with the password grant.
        String adminToken = Platform.accessToken(admin, "user", "admin", "write", "update");
        String memberToken = Platform.accessToken(member, "user", "admin", "write", "update");
        Map<String, Object> created = as(adminToken).contentType("application/json")
                .body(Map.of("name", "strict-" + java.util.UUID.randomUUID().toString().substring(0, 8), "visibility", "private"))
                .post("/organizations").then().statusCode(201).extract().jsonPath().getMap("");
        String name = (String) created.get("name");
        int id = (Integer) created.get("id");
        as(adminToken).contentType("application/json").body(Map.of("role", "member"))
                .put("/organizations/" + id + "/memberships/" + member.id()).then().statusCode(201);
        as(memberToken).contentType("application/json").body(Map.of("state", "active"))
                .patch("/user/memberships/organizations/" + id).then().statusCode(200);
        String vocab = "/" + name + "/vocab/schemes";
        String events = "/" + name + "/repositories/notebook/data/events";
        as(memberToken).contentType("application/json").body(Map.of("note", "before the rule")).post(events)
                .then().statusCode(201);

        AccountSecurityForms.enrolAuthenticator(admin);
        as(adminToken).contentType("application/json").body(Map.of("two_factor_requirement_enabled", true))
                .patch("/organizations/" + id).then().statusCode(200).body("two_factor_requirement_enabled", equalTo(true));

        // Every replica of every service keeps a namespace's rights for a while: past it, all refuse.
        Thread.sleep(RIGHTS_CACHE.toMillis());
        as(memberToken).get(vocab).then().statusCode(403)
                .body("title", equalTo("Second Factor Required")).body("detail", containsString("/account/security"));
        as(memberToken).get(events).then().statusCode(403).body("title", equalTo("Second Factor Required"));
        as(memberToken).contentType("application/json").body(Map.of("note", "refused")).post(events).then().statusCode(403)
                .body("title", equalTo("Second Factor Required"));
        // The admin, who has one, goes on; the member is still a member.
        as(adminToken).get(vocab).then().statusCode(200);
        as(adminToken).get("/organizations/" + id + "/members").then().statusCode(200)
                .body("id", org.hamcrest.Matchers.hasItem((int) member.id()));

        AccountSecurityForms.enrolAuthenticator(member);
        Thread.sleep(RIGHTS_CACHE.toMillis());
        as(memberToken).get(vocab).then().statusCode(200);
        as(memberToken).get(events).then().statusCode(200);
        as(memberToken).contentType("application/json").body(Map.of("note", "after setting one up")).post(events)
                .then().statusCode(201);
    }
}
