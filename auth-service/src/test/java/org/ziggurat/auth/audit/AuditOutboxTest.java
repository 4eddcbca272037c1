package org.ziggurat.auth.audit;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport;
import org.ziggurat.platform.testing.ServiceDatabase;
import org.ziggurat.platform.testing.TestTokens;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.OAuthTestSupport.asPerson;

/**
 * Changes to applications, grants, identity providers and resource servers reach the audit stream: each written to
 * the outbox by the transaction that makes it (V25's and V30's triggers), with who made it and every
 * setting, relayed to events-service, a secret's rotation told without the secret, an update that
 * changes nothing not told; the events reach events-service in the order they were made (V30's
 * lane), also when one fails, one commits late, or replicas relay at once.
 */
@QuarkusTest
class AuditOutboxTest {

    private static final long OPERATOR = 990;

    @Inject
    AuditRelay relay;

    /** The operator with their own token: issued without a client. */
    private static RequestSpecification operator() {
        return given().header("X-Platform-Token", TestTokens.userWithClient(OPERATOR, "operator", null, "admin"));
    }

    private static RequestSpecification owner() {
        return asPerson(OAuthTestSupport.OWNER_ID, "owner", "admin");
    }

    private static JsonObject last(String type, String subject) {
        List<JsonObject> all = told(type, subject);
        return all.get(all.size() - 1);
    }

    /**
     * The order events-service records them in (each once: it ignores one told again): their
     * numbers rise with every event, whichever test made it.
     */
    private static void assertRecordedInOrder() {
        List<Long> recorded = EventsDouble.AUDIT.stream().map(e -> e.getLong("source_id")).distinct().toList();
        for (int i = 1; i < recorded.size(); i++) {
            assertTrue(recorded.get(i) > recorded.get(i - 1), "event " + recorded.get(i) + " was recorded after "
                    + recorded.get(i - 1) + ": " + recorded);
        }
    }

    private static int arrival(String type, String subject, String name) {
        for (int i = 0; i < EventsDouble.AUDIT.size(); i++) {
            JsonObject e = EventsDouble.AUDIT.get(i);
            if (type.equals(e.getString("type")) && subject.equals(e.getString("subject"))
                    && name.equals(e.getJsonObject("data").getString("name"))) {
                return i;
            }
        }
        return -1;
    }

    private static Set<String> columns(String table) {
        try (Connection c = ServiceDatabase.connect(); PreparedStatement query = c.prepareStatement(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = 'auth' AND table_name = ?")) {
            query.setString(1, table);
            Set<String> columns = new TreeSet<>();
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    columns.add(rows.getString(1));
                }
            }
            return columns;
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    private static void sql(String statement) {
        try (Connection c = ServiceDatabase.connect(); Statement s = c.createStatement()) {
            s.execute(statement);
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

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
        for (String type : List.of("authorization.granted", "authorization.changed", "authorization.revoked")) {
            assertEquals(101L, told(type, subject).get(0).getLong("actor_id"), "alice herself: " + type);
        }
        assertEquals(List.of("user"), told("authorization.granted", subject).get(0).getJsonObject("data").getJsonArray("scopes")
                .getList());
        assertEquals(List.of("user", "write"), told("authorization.changed", subject).get(0).getJsonObject("data")
                .getJsonArray("scopes").getList(), "the grant widened");
        assertEquals(app.clientId(), told("authorization.revoked", subject).get(0).getJsonObject("data").getString("client_id"),
                "events-service knows the application by the client of the token that made a webhook");
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

    /**
     * Attack review: operator_registered (V36) is trust (prompt=none's answers go straight to the
     * application's redirect URI), given at registration and taken away by a change of redirect URIs,
     * yet the audit stream, which tells "every setting of an application", says neither: a SIEM
     * watching it cannot see which third-party registrations hold that trust, nor when they lose it.
     */
    @Test
    void theAuditStreamTellsTheTrustAnOperatorsRegistrationGives() {
        String clientId = given().header("Authorization", "Bearer test-initial-access-token-0123456789abcdef")
                .contentType("application/json").body("{\"client_name\": \"Audited partner\", \"redirect_uris\": "
                        + "[\"https://app.example.org/callback\"], \"scope\": \"openid\"}")
                .post("/oauth/register").then().statusCode(201).extract().path("client_id");
        await().atMost(Duration.ofSeconds(10)).until(() -> EventsDouble.AUDIT.stream().anyMatch(e ->
                "application.created".equals(e.getString("type")) && e.getJsonObject("data") != null
                        && clientId.equals(e.getJsonObject("data").getString("client_id"))));
        JsonObject created = EventsDouble.AUDIT.stream().filter(e -> "application.created".equals(e.getString("type"))
                && clientId.equals(e.getJsonObject("data").getString("client_id"))).findFirst().orElseThrow();
        assertEquals(Boolean.TRUE, created.getJsonObject("data").getBoolean("operator_registered"), created.encode());
    }

    /**
     * Every change of an application names who made it (its owner; the operator who verified it),
     * and tells every setting: the verified mark, token exchange, the password grant, the access
     * token's format, and every other column of the application but its secrets.
     */
    @Test
    void everyChangeOfAnApplicationNamesWhoMadeItAndTellsEverySetting() {
        OAuthTestSupport.App app = OAuthTestSupport.createApp(true, "user");
        String subject = "application/" + app.id();
        owner().contentType("application/json").body(Map.of("token_exchange", true, "access_token_format", "jwt",
                "password_grant", false)).patch("/applications/" + app.id()).then().statusCode(200);
        operator().contentType("application/json").body("{\"verified\": true}").patch("/applications/" + app.id())
                .then().statusCode(200).body("verified", equalTo(true));
        owner().post("/applications/" + app.id() + "/secret").then().statusCode(200);
        owner().delete("/applications/" + app.id()).then().statusCode(204);
        await().atMost(Duration.ofSeconds(10)).until(() -> !told("application.deleted", subject).isEmpty());

        JsonObject created = told("application.created", subject).get(0);
        assertEquals(OAuthTestSupport.OWNER_ID, created.getLong("actor_id"), "the owner made it");
        List<JsonObject> changes = told("application.changed", subject);
        assertEquals(2, changes.size(), changes.toString());
        JsonObject settings = changes.get(0);
        assertEquals(OAuthTestSupport.OWNER_ID, settings.getLong("actor_id"));
        assertEquals(true, settings.getJsonObject("data").getBoolean("token_exchange"));
        assertEquals("jwt", settings.getJsonObject("data").getString("access_token_format"));
        assertEquals(false, settings.getJsonObject("data").getBoolean("password_grant"));
        assertEquals(false, settings.getJsonObject("data").getBoolean("verified"));
        JsonObject verified = changes.get(1);
        assertEquals(OPERATOR, verified.getLong("actor_id"), "the operator verified it");
        assertEquals(true, verified.getJsonObject("data").getBoolean("verified"));
        assertEquals(OAuthTestSupport.OWNER_ID, told("application.secret_rotated", subject).get(0).getLong("actor_id"));
        assertEquals(OAuthTestSupport.OWNER_ID, told("application.deleted", subject).get(0).getLong("actor_id"));

        // Every column is told (the id as application_id), but the secrets' hashes (said, never shown) and the
        // registration's metadata, of which only how it authenticates and which grants it registered.
        Set<String> fields = new TreeSet<>(created.getJsonObject("data").fieldNames());
        Set<String> untold = columns("application");
        untold.removeAll(fields);
        untold.removeAll(Set.of("id", "client_secret_hash", "registration_token_hash", "registration_metadata",
                "created_at", "updated_at"));
        assertEquals(Set.of(), untold, "every setting of an application is told");
        assertTrue(fields.containsAll(Set.of("application_id", "registered", "token_endpoint_auth_method", "grant_types")),
                fields.toString());
        assertFalse(created.encode().contains("hash"), created.encode());
    }

    /**
     * The identity providers operators manage join the stream with the operator who changed them,
     * every field but the secret (only whether there is one).
     */
    @Test
    void anOperatorsChangesOfIdentityProvidersReachTheAuditStream() {
        String issuer = ConfigProvider.getConfig().getValue("ziggurat.auth.federation.providers.partner.issuer", String.class);
        Map<String, Object> body = new HashMap<>(Map.of("kind", "oidc", "issuer", issuer, "display_name", "Audited U",
                "client_id", "audited-client", "client_secret", "the-audited-secret"));
        operator().contentType("application/json").body(body).put("/identity-providers/audited-u").then().statusCode(201);
        body.put("display_name", "Audited University");
        body.remove("client_secret");
        operator().contentType("application/json").body(body).put("/identity-providers/audited-u").then().statusCode(200);
        body.put("client_secret", "another-audited-secret");
        operator().contentType("application/json").body(body).put("/identity-providers/audited-u").then().statusCode(200);
        operator().delete("/identity-providers/audited-u").then().statusCode(204);
        String subject = "identity_provider/audited-u";
        await().atMost(Duration.ofSeconds(10)).until(() -> !told("identity_provider.deleted", subject).isEmpty());

        JsonObject created = told("identity_provider.created", subject).get(0);
        assertEquals("Audited U", created.getJsonObject("data").getString("display_name"));
        assertEquals(true, created.getJsonObject("data").getBoolean("client_secret_set"));
        assertEquals("Audited University", told("identity_provider.changed", subject).get(0).getJsonObject("data")
                .getString("display_name"));
        assertEquals(1, told("identity_provider.secret_rotated", subject).size());
        for (String type : List.of("identity_provider.created", "identity_provider.changed", "identity_provider.secret_rotated",
                "identity_provider.deleted")) {
            assertEquals(OPERATOR, told(type, subject).get(0).getLong("actor_id"), type);
            assertFalse(told(type, subject).get(0).encode().contains("audited-secret"), "no secret is told");
        }
        Set<String> untold = columns("upstream_provider");
        untold.removeAll(created.getJsonObject("data").fieldNames());
        untold.removeAll(Set.of("id", "client_secret_sealed", "created_at", "updated_at"));
        assertEquals(Set.of(), untold, "every field of a provider is told");
        assertEquals("audited-u", created.getJsonObject("data").getString("provider_id"));
    }

    /**
     * The resource servers operators register join the stream with the operator who changed them,
     * every field but the secret's hash; a new credential is told as secret_rotated, never shown.
     */
    @Test
    void anOperatorsChangesOfResourceServersReachTheAuditStream() {
        Map<String, Object> body = new HashMap<>(Map.of("identifier", "https://audited-" + UUID.randomUUID() + ".example.org",
                "name", "Audited storage", "scopes", List.of("user"), "access_token_format", "opaque"));
        var created = operator().contentType("application/json").body(body).post("/resource-servers").then().statusCode(201)
                .extract();
        String id = created.path("id");
        String secret = created.path("client_secret");
        operator().contentType("application/json").body(Map.of("name", "Audited storage, renamed", "access_token_lifetime", 600))
                .patch("/resource-servers/" + id).then().statusCode(200);
        String newSecret = operator().post("/resource-servers/" + id + "/secret").then().statusCode(200).extract()
                .path("client_secret");
        operator().delete("/resource-servers/" + id).then().statusCode(204);
        String subject = "resource_server/" + id;
        await().atMost(Duration.ofSeconds(10)).until(() -> !told("resource_server.deleted", subject).isEmpty());

        JsonObject told = told("resource_server.created", subject).get(0);
        assertEquals("Audited storage", told.getJsonObject("data").getString("name"));
        assertEquals(created.path("client_id").toString(), told.getJsonObject("data").getString("client_id"));
        JsonObject changed = told("resource_server.changed", subject).get(0).getJsonObject("data");
        assertEquals("Audited storage, renamed", changed.getString("name"));
        assertEquals(600, changed.getInteger("access_token_lifetime"));
        assertEquals(1, told("resource_server.secret_rotated", subject).size());
        for (String type : List.of("resource_server.created", "resource_server.changed", "resource_server.secret_rotated",
                "resource_server.deleted")) {
            assertEquals(OPERATOR, told(type, subject).get(0).getLong("actor_id"), type);
            assertFalse(told(type, subject).get(0).encode().contains(secret), "no secret is told");
            assertFalse(told(type, subject).get(0).encode().contains(newSecret), "no secret is told");
        }
        Set<String> untold = columns("resource_server");
        untold.removeAll(told.getJsonObject("data").fieldNames());
        untold.removeAll(Set.of("id", "client_secret_hash", "created_at", "updated_at"));
        assertEquals(Set.of(), untold, "every field of a resource server is told");
    }

    /** An event events-service does not take holds back every later one: they follow it once it is recorded. */
    @Test
    void anEventThatFailsHoldsBackEveryLaterOne() {
        OAuthTestSupport.App app = OAuthTestSupport.createApp(true, "user");
        String subject = "application/" + app.id();
        String held = "Held " + UUID.randomUUID();
        EventsDouble.REFUSE.add(held);
        try {
            owner().contentType("application/json").body(Map.of("name", held)).patch("/applications/" + app.id()).then()
                    .statusCode(200);
            owner().contentType("application/json").body(Map.of("name", "After the held one")).patch("/applications/" + app.id())
                    .then().statusCode(200);
            // Refused, and refused again after its wait: meanwhile the later one was due all along.
            await().atMost(Duration.ofSeconds(10)).until(() -> EventsDouble.REFUSED.stream()
                    .filter(e -> e.encode().contains(held)).count() >= 2);
            assertEquals(-1, arrival("application.changed", subject, "After the held one"), "nothing passes the held one");
        } finally {
            EventsDouble.REFUSE.remove(held);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> arrival("application.changed", subject, "After the held one") >= 0);
        assertTrue(arrival("application.changed", subject, held) < arrival("application.changed", subject, "After the held one"));
        assertRecordedInOrder();
    }

    /**
     * A change whose transaction commits after a later one's comes after it: the numbers are given
     * as the relay first sees the events, so none is ever recorded below one recorded before.
     */
    @Test
    void aChangeThatCommitsLateComesAfterTheOnesCommittedBeforeIt() throws SQLException {
        OAuthTestSupport.App early = OAuthTestSupport.createApp(true, "user");
        OAuthTestSupport.App later = OAuthTestSupport.createApp(true, "user");
        try (Connection late = ServiceDatabase.connect(); Statement statement = late.createStatement()) {
            late.setAutoCommit(false);
            statement.execute("UPDATE auth.application SET name = 'Committed late' WHERE id = " + early.id());
            owner().contentType("application/json").body(Map.of("name", "Committed first")).patch("/applications/" + later.id())
                    .then().statusCode(200);
            await().atMost(Duration.ofSeconds(10)).until(() -> arrival("application.changed", "application/" + later.id(),
                    "Committed first") >= 0);
            late.commit();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> arrival("application.changed", "application/" + early.id(),
                "Committed late") >= 0);
        assertTrue(last("application.changed", "application/" + early.id()).getLong("source_id")
                > last("application.changed", "application/" + later.id()).getLong("source_id"), "numbered as it was seen");
        assertRecordedInOrder();
    }

    /** Replicas relaying at once (three here, and the scheduler's) send one lane: every event in order. */
    @Test
    void replicasRelayingAtOnceKeepTheOrder() {
        OAuthTestSupport.App app = OAuthTestSupport.createApp(true, "user");
        String held = "Held back " + UUID.randomUUID();
        EventsDouble.REFUSE.add(held);
        try {
            sql("UPDATE auth.application SET name = '" + held + "' WHERE id = " + app.id());
            for (int i = 0; i < 120; i++) {
                sql("UPDATE auth.application SET name = 'Burst " + i + "' WHERE id = " + app.id());
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> EventsDouble.REFUSED.stream()
                    .anyMatch(e -> e.encode().contains(held)));
        } finally {
            EventsDouble.REFUSE.remove(held);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            Uni.join().all(relay.relay(), relay.relay(), relay.relay()).andFailFast().await().atMost(Duration.ofSeconds(20));
            return arrival("application.changed", "application/" + app.id(), "Burst 119") >= 0;
        });
        int previous = arrival("application.changed", "application/" + app.id(), held);
        for (int i = 0; i < 120; i++) {
            int next = arrival("application.changed", "application/" + app.id(), "Burst " + i);
            assertTrue(next > previous, "Burst " + i + " arrived at " + next + ", before " + previous);
            previous = next;
        }
        assertRecordedInOrder();
    }
}
