package org.ziggurat.directory.accountdata;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.ziggurat.directory.DirectoryTestSupport.Person;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.directory.DirectoryTestSupport.as;
import static org.ziggurat.directory.DirectoryTestSupport.signUp;
import static org.ziggurat.directory.DirectoryTestSupport.uniqueName;

/**
 * The directory's changes reach the audit stream through the peers' outbox: each membership
 * change (with who made it) and each row of a person's security log, written in the transaction
 * of the change (V15's triggers) and delivered to events-service.
 */
@QuarkusTest
class AuditOutboxTest {

    @Inject
    Pool pool;

    private static List<JsonObject> told(String type, String subject) {
        return PeersDouble.AUDIT.stream().filter(e -> type.equals(e.getString("type")) && subject.equals(e.getString("subject")))
                .toList();
    }

    @Test
    void membershipChangesAndTheSecurityLogReachTheAuditStreamWithWhoMadeThem() {
        Person admin = signUp("auditadmin");
        Person member = signUp("auditmember");
        int org = as(admin, "admin").contentType("application/json").body(Map.of("name", uniqueName("audited")))
                .post("/organizations").then().statusCode(201).extract().path("id");
        as(admin, "admin").contentType("application/json").body(Map.of("role", "member"))
                .put("/organizations/" + org + "/memberships/" + member.id()).then().statusCode(201);
        as(member, "admin").contentType("application/json").body(Map.of("state", "active"))
                .patch("/user/memberships/organizations/" + org).then().statusCode(200);
        as(admin, "admin").delete("/organizations/" + org + "/memberships/" + member.id()).then().statusCode(204);

        String subject = "organization/" + org + "/member/" + member.id();
        await().atMost(Duration.ofSeconds(10)).until(() -> !told("membership.removed", subject).isEmpty()
                && !told("membership.added", subject).isEmpty() && !told("membership.changed", subject).isEmpty());
        JsonObject added = told("membership.added", subject).get(0);
        assertEquals(admin.id(), added.getLong("actor_id"), "the admin invited");
        assertEquals("pending", added.getJsonObject("data").getString("state"));
        JsonObject accepted = told("membership.changed", subject).get(0);
        assertEquals(member.id(), accepted.getLong("actor_id"), "the member accepted");
        assertEquals("active", accepted.getJsonObject("data").getString("state"));
        assertEquals(admin.id(), told("membership.removed", subject).get(0).getLong("actor_id"));
        // The creator became the organization's first admin.
        String creator = "organization/" + org + "/member/" + admin.id();
        assertEquals(admin.id(), told("membership.added", creator).get(0).getLong("actor_id"));
        // Each event once in the outbox, numbered for events-service to record it once.
        List<Long> ids = PeersDouble.AUDIT.stream().map(e -> e.getLong("source_id")).toList();
        assertEquals(ids.size(), ids.stream().distinct().count(), "each delivered event has its own source_id");

        // A row of the security log, as any code writes it: the same transaction writes its outbox row.
        pool.preparedQuery("INSERT INTO account_event (person_id, kind, client_address) VALUES ($1, 'password_changed', '192.0.2.7')")
                .execute(Tuple.of(member.id())).await().atMost(Duration.ofSeconds(5));
        await().atMost(Duration.ofSeconds(10)).until(() -> !told("account.password_changed", "person/" + member.id()).isEmpty());
        JsonObject password = told("account.password_changed", "person/" + member.id()).get(0);
        assertEquals("192.0.2.7", password.getJsonObject("data").getString("client_address"));
        assertTrue(password.getString("time").startsWith("20"), password.encode());
    }
}
