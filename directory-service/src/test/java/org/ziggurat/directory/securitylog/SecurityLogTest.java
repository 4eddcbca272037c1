package org.ziggurat.directory.securitylog;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.ziggurat.directory.DirectoryTestSupport.Person;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.directory.DirectoryTestSupport.as;
import static org.ziggurat.directory.DirectoryTestSupport.asService;
import static org.ziggurat.directory.DirectoryTestSupport.signUp;

/**
 * The account's security log: what auth-service records (sign-ins, applications), what the
 * directory records itself (wrong passwords and codes), the notice of a new device, and the
 * retention that forgets old entries.
 */
@QuarkusTest
class SecurityLogTest {

    private static final String FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
    private static final String FIREFOX_LINUX_UPDATED = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
    private static final String SAFARI_PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
            + "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

    @Inject
    Pool pool;

    @Inject
    SecurityLogPurge purge;

    private static io.restassured.response.ValidatableResponse record(long personId, String kind, String userAgent,
            String detail) {
        Map<String, Object> entry = new java.util.HashMap<>(Map.of("kind", kind, "client_address", "192.0.2.7"));
        if (userAgent != null) {
            entry.put("user_agent", userAgent);
        }
        if (detail != null) {
            entry.put("detail", detail);
        }
        return asService("auth-service").contentType("application/json").body(entry)
                .post("/internal/people/" + personId + "/security-log").then();
    }

    private List<Row> entries(Person person) {
        List<Row> rows = new ArrayList<>();
        pool.preparedQuery("SELECT kind, client_address, device, device_key, detail FROM account_event WHERE person_id = $1 "
                + "ORDER BY id").execute(Tuple.of(person.id())).await().atMost(Duration.ofSeconds(10)).forEach(rows::add);
        return rows;
    }

    private long noticesOfNewDevice(Person person) {
        return pool.preparedQuery("SELECT count(*) FROM mail_outbox WHERE person_id = $1 AND kind = 'sign_in' "
                        + "AND subject = 'A sign-in to your account from a new device'")
                .execute(Tuple.of(person.id())).await().atMost(Duration.ofSeconds(10)).iterator().next().getLong(0);
    }

    @Test
    void aSignInFromADeviceNotSeenBeforeMailsANoticeButNotTheFirstNorAnUpdatedBrowser() {
        Person person = signUp("log-devices");
        record(person.id(), "sign_in", FIREFOX_LINUX, null).statusCode(204);
        assertEquals(0, noticesOfNewDevice(person), "the first sign-in ever is not from a 'new' device");
        record(person.id(), "sign_in", FIREFOX_LINUX_UPDATED, null).statusCode(204);
        assertEquals(0, noticesOfNewDevice(person), "a browser's update is the same device");
        record(person.id(), "sign_in", SAFARI_PHONE, null).statusCode(204);
        assertEquals(1, noticesOfNewDevice(person));
        String body = pool.preparedQuery("SELECT body, recipient FROM mail_outbox WHERE person_id = $1 AND kind = 'sign_in'")
                .execute(Tuple.of(person.id())).await().atMost(Duration.ofSeconds(10)).iterator().next().getString("body");
        assertTrue(body.contains("iPhone") && body.contains("192.0.2.7") && body.contains("/security"), body);
        record(person.id(), "sign_in", SAFARI_PHONE, null).statusCode(204);
        assertEquals(1, noticesOfNewDevice(person), "seen now");
        List<Row> rows = entries(person);
        assertEquals(4, rows.size());
        assertEquals(FIREFOX_LINUX, rows.get(0).getString("device"));
        assertEquals(rows.get(0).getString("device_key"), rows.get(1).getString("device_key"));
    }

    @Test
    void applicationsGivenAndRefusedAccessAreLoggedWithTheirName() {
        Person person = signUp("log-apps");
        record(person.id(), "application_authorized", FIREFOX_LINUX, "Lab notebook").statusCode(204);
        record(person.id(), "application_revoked", FIREFOX_LINUX, "Lab notebook").statusCode(204);
        asService("auth-service").get("/internal/people/" + person.id() + "/factors").then().statusCode(200)
                .body("events[0].kind", equalTo("application_revoked"))
                .body("events[0].detail", equalTo("Lab notebook"))
                .body("events[0].device", equalTo(FIREFOX_LINUX))
                .body("events[1].kind", equalTo("application_authorized"));
    }

    @Test
    void onlyTheKindsServicesMayRecordForAPersonThatExistsByAService() {
        Person person = signUp("log-refusals");
        record(person.id(), "password_changed", null, null).statusCode(422);
        record(person.id(), "sign_in_failed", null, null).statusCode(422);
        record(person.id(), "sign_in", null, "x".repeat(201)).statusCode(422);
        record(987_654_321L, "sign_in", null, null).statusCode(404);
        asService("auth-service").contentType("application/json").body("{\"kind\":").post("/internal/people/"
                + person.id() + "/security-log").then().statusCode(400);
        as(person, "user").contentType("application/json").body(Map.of("kind", "sign_in"))
                .post("/internal/people/" + person.id() + "/security-log").then().statusCode(403);
        RestAssured.given().contentType("application/json").body(Map.of("kind", "sign_in"))
                .post("/internal/people/" + person.id() + "/security-log").then().statusCode(401);
        assertTrue(entries(person).isEmpty());
    }

    @Test
    void wrongPasswordsAndCodesAreLoggedWithTheDeviceThatGaveThem() {
        Person person = signUp("log-failures");
        asService("auth-service").contentType("application/json")
                .body(Map.of("login", person.username(), "password", "not the password at all", "client_address",
                        "198.51.100.4", "user_agent", SAFARI_PHONE))
                .post("/internal/passwords/verify").then().statusCode(401);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !entries(person).isEmpty());
        Row failed = entries(person).get(0);
        assertEquals("sign_in_failed", failed.getString("kind"));
        assertEquals("198.51.100.4", failed.getString("client_address"));
        assertEquals(SAFARI_PHONE, failed.getString("device"));
        asService("auth-service").contentType("application/json")
                .body(Map.of("login", person.username(), "password", "correct horse battery", "client_address", "198.51.100.4"))
                .post("/internal/passwords/verify").then().statusCode(200);
        assertEquals(1, entries(person).size(), "the right password is not a sign-in until auth-service says so");
    }

    @Test
    void entriesPastTheRetentionAreForgotten() {
        Person person = signUp("log-retention");
        record(person.id(), "sign_in", FIREFOX_LINUX, null).statusCode(204);
        record(person.id(), "sign_in", FIREFOX_LINUX, null).statusCode(204);
        pool.preparedQuery("UPDATE account_event SET created_at = now() - interval '91 days' WHERE id = "
                        + "(SELECT min(id) FROM account_event WHERE person_id = $1)")
                .execute(Tuple.of(person.id())).await().atMost(Duration.ofSeconds(10));
        long purged = purge.purge().await().atMost(Duration.ofSeconds(20));
        assertTrue(purged >= 1, "purged " + purged);
        assertEquals(1, entries(person).size());
    }
}
