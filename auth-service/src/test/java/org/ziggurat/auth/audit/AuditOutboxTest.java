package org.ziggurat.auth.audit;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.OAuthTestSupport.asPerson;

/**
 * Changes to applications reach the audit stream: each written to the outbox by the transaction
 * that makes it (V25's trigger), relayed to events-service, a secret's rotation told without the
 * secret, an update that changes nothing not told.
 */
@QuarkusTest
class AuditOutboxTest {

    private static List<JsonObject> told(String type, String subject) {
        return EventsDouble.AUDIT.stream().filter(e -> type.equals(e.getString("type")) && subject.equals(e.getString("subject")))
                .toList();
    }

    @Test
    void aGrantAndItsRevocationReachTheAuditStream() {
        OAuthTestSupport.App app = OAuthTestSupport.createApp(true, "public user write");
        OAuthTestSupport.aliceTokens(app, "user");
        OAuthTestSupport.aliceTokens(app, "write");
        int grant = asPerson(101, "alice", "public").get("/applications/grants").then().statusCode(200).extract().jsonPath()
                .getInt("find { it.app.client_id == '" + app.clientId() + "' }.id");
        asPerson(101, "alice", "public").delete("/applications/grants/" + grant).then().statusCode(204);
        String subject = "person/101/application/" + app.id();
        await().atMost(Duration.ofSeconds(10)).until(() -> !told("authorization.revoked", subject).isEmpty());
        assertEquals(List.of("user"), told("authorization.granted", subject).get(0).getJsonObject("data").getJsonArray("scopes")
                .getList());
        assertEquals(List.of("user", "write"), told("authorization.changed", subject).get(0).getJsonObject("data")
                .getJsonArray("scopes").getList(), "the grant widened");
    }

    @Test
    void anApplicationsLifeReachesTheAuditStream() {
        OAuthTestSupport.App app = OAuthTestSupport.createApp(true, "user");
        String subject = "application/" + app.id();
        asPerson(OAuthTestSupport.OWNER_ID, "owner", "admin").post("/applications/" + app.id() + "/secret").then().statusCode(200);
        asPerson(OAuthTestSupport.OWNER_ID, "owner", "admin").contentType("application/json").body(Map.of("name", "Renamed"))
                .patch("/applications/" + app.id()).then().statusCode(200);
        // A change made by a session whose search_path does not name the schema (an operator's psql) is told too.
        try (java.sql.Connection c = org.ziggurat.platform.testing.ServiceDatabase.connect();
                java.sql.Statement statement = c.createStatement()) {
            statement.execute("SET search_path TO public");
            statement.execute("UPDATE auth.application SET name = 'Renamed by hand' WHERE id = " + app.id());
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> told("application.changed", subject).stream()
                .anyMatch(e -> e.getJsonObject("data").getString("name").equals("Renamed by hand")));
        asPerson(OAuthTestSupport.OWNER_ID, "owner", "admin").delete("/applications/" + app.id()).then().statusCode(204);
        await().atMost(Duration.ofSeconds(10)).until(() -> !told("application.deleted", subject).isEmpty());

        JsonObject created = told("application.created", subject).get(0);
        assertEquals(app.clientId(), created.getJsonObject("data").getString("client_id"));
        assertEquals(OAuthTestSupport.OWNER_ID, created.getJsonObject("data").getLong("owner_id"));
        JsonObject rotated = told("application.secret_rotated", subject).get(0);
        assertFalse(rotated.encode().contains("secret_hash"), "the secret's hash is never told: " + rotated.encode());
        assertEquals("Renamed", told("application.changed", subject).get(0).getJsonObject("data").getString("name"));
        assertEquals(2, told("application.changed", subject).size(), "one event a change");
        List<Long> ids = EventsDouble.AUDIT.stream().map(e -> e.getLong("source_id")).toList();
        assertEquals(ids.size(), ids.stream().distinct().count());
        assertTrue(created.getString("time").startsWith("20"));
    }
}
