package org.ziggurat.directory.accountdata;

import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.ziggurat.directory.DirectoryTestSupport.Person;
import org.ziggurat.platform.testing.ServiceDatabase;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.directory.DirectoryTestSupport.as;
import static org.ziggurat.directory.DirectoryTestSupport.signUp;
import static org.ziggurat.directory.DirectoryTestSupport.uniqueName;

/**
 * The directory's changes reach the audit stream through the peers' outbox: each membership
 * change (with who made it, also when an organization or an account goes) and each row of a
 * person's security log, written in the transaction of the change (V15's triggers) and delivered to
 * events-service in the order they were made (V17's lane), also when one fails, one commits late,
 * or replicas relay at once.
 */
@QuarkusTest
class AuditOutboxTest {

    @Inject
    Pool pool;

    @Inject
    ErasureWorker worker;

    /** The body that confirms an account's deletion: the current password. */
    private static final Map<String, String> PASSWORD = Map.of("password", "correct horse battery");

    /**
     * The order events-service records them in (each once: it ignores one told again): their
     * numbers rise with every event, whichever test made it.
     */
    private static void assertRecordedInOrder() {
        List<Long> recorded = PeersDouble.AUDIT.stream().map(e -> e.getLong("source_id")).distinct().toList();
        for (int i = 1; i < recorded.size(); i++) {
            assertTrue(recorded.get(i) > recorded.get(i - 1), "event " + recorded.get(i) + " was recorded after "
                    + recorded.get(i - 1) + ": " + recorded);
        }
    }

    /** Where the security-log row with this detail arrived; -1 before it did. */
    private static int arrival(String detail) {
        for (int i = 0; i < PeersDouble.AUDIT.size(); i++) {
            if (detail.equals(PeersDouble.AUDIT.get(i).getJsonObject("data").getString("detail"))) {
                return i;
            }
        }
        return -1;
    }

    private void logged(long personId, String detail) {
        pool.preparedQuery("INSERT INTO account_event (person_id, kind, detail) VALUES ($1, 'password_changed', $2)")
                .execute(Tuple.of(personId, detail)).await().atMost(Duration.ofSeconds(5));
    }

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

    /** The memberships that go with an organization, or with an account, name who removed them. */
    @Test
    void theMembershipsThatGoWithAnOrganizationOrAnAccountNameWhoRemovedThem() {
        Person admin = signUp("orgdeleter");
        Person member = signUp("orgmember");
        int org = as(admin, "admin").contentType("application/json").body(Map.of("name", uniqueName("deleted")))
                .post("/organizations").then().statusCode(201).extract().path("id");
        as(admin, "admin").contentType("application/json").body(Map.of("role", "member"))
                .put("/organizations/" + org + "/memberships/" + member.id()).then().statusCode(201);
        as(admin, "admin").delete("/organizations/" + org).then().statusCode(204);

        Person leaver = signUp("auditleaver");
        int own = as(leaver, "admin").contentType("application/json").body(Map.of("name", uniqueName("ownorg")))
                .post("/organizations").then().statusCode(201).extract().path("id");
        as(leaver, "account").contentType("application/json").body(PASSWORD).delete("/user?confirm=" + leaver.username())
                .then().statusCode(200);

        String memberSubject = "organization/" + org + "/member/" + member.id();
        String leaverSubject = "organization/" + own + "/member/" + leaver.id();
        await().atMost(Duration.ofSeconds(10)).until(() -> !told("membership.removed", memberSubject).isEmpty()
                && !told("membership.removed", leaverSubject).isEmpty());
        assertEquals(admin.id(), told("membership.removed", memberSubject).get(0).getLong("actor_id"), "the admin deleted it");
        assertEquals(admin.id(), told("membership.removed", "organization/" + org + "/member/" + admin.id()).get(0)
                .getLong("actor_id"));
        assertEquals(leaver.id(), told("membership.removed", leaverSubject).get(0).getLong("actor_id"), "the person left");
    }

    /** An event events-service does not take holds back every later one: they follow it once it is recorded. */
    @Test
    void anEventThatFailsHoldsBackEveryLaterOne() {
        Person person = signUp("auditheld");
        String held = "held " + UUID.randomUUID();
        String after = "after " + UUID.randomUUID();
        PeersDouble.REFUSE.add(held);
        try {
            logged(person.id(), held);
            logged(person.id(), after);
            // Refused, and refused again after its wait: meanwhile the later one was due all along.
            await().atMost(Duration.ofSeconds(10)).until(() -> PeersDouble.REFUSED.stream()
                    .filter(e -> e.encode().contains(held)).count() >= 2);
            assertEquals(-1, arrival(after), "nothing passes the held one");
        } finally {
            PeersDouble.REFUSE.remove(held);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> arrival(after) >= 0);
        assertTrue(arrival(held) < arrival(after));
        assertRecordedInOrder();
    }

    /**
     * A change whose transaction commits after a later one's comes after it: the numbers are given
     * as the relay first sees the events, so none is ever recorded below one recorded before.
     */
    @Test
    void aChangeThatCommitsLateComesAfterTheOnesCommittedBeforeIt() throws SQLException {
        Person person = signUp("auditlate");
        String late = "late " + UUID.randomUUID();
        String first = "first " + UUID.randomUUID();
        try (Connection c = ServiceDatabase.connect(); Statement statement = c.createStatement()) {
            c.setAutoCommit(false);
            statement.execute("INSERT INTO directory.account_event (person_id, kind, detail) VALUES (" + person.id()
                    + ", 'password_changed', '" + late + "')");
            logged(person.id(), first);
            await().atMost(Duration.ofSeconds(10)).until(() -> arrival(first) >= 0);
            c.commit();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> arrival(late) >= 0);
        assertTrue(PeersDouble.AUDIT.get(arrival(late)).getLong("source_id")
                > PeersDouble.AUDIT.get(arrival(first)).getLong("source_id"), "numbered as it was seen");
        assertRecordedInOrder();
    }

    /** Replicas relaying at once (three here, and the scheduler's) send one lane: every event in order. */
    @Test
    void replicasRelayingAtOnceKeepTheOrder() {
        Person person = signUp("auditburst");
        String run = UUID.randomUUID().toString();
        PeersDouble.REFUSE.add("held " + run);
        try {
            logged(person.id(), "held " + run);
            for (int i = 0; i < 120; i++) {
                logged(person.id(), "burst " + i + " " + run);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> PeersDouble.REFUSED.stream()
                    .anyMatch(e -> e.encode().contains("held " + run)));
        } finally {
            PeersDouble.REFUSE.remove("held " + run);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            Uni.join().all(worker.deliverBatch(), worker.deliverBatch(), worker.deliverBatch()).andFailFast()
                    .await().atMost(Duration.ofSeconds(20));
            return arrival("burst 119 " + run) >= 0;
        });
        int previous = arrival("held " + run);
        for (int i = 0; i < 120; i++) {
            int next = arrival("burst " + i + " " + run);
            assertTrue(next > previous, "burst " + i + " arrived at " + next + ", before " + previous);
            previous = next;
        }
        assertRecordedInOrder();
    }
}
