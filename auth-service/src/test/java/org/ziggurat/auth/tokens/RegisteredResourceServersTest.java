package org.ziggurat.auth.tokens;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.platform.testing.ServiceDatabase;
import org.ziggurat.platform.testing.TestTokens;

import java.sql.Connection;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.OAuthTestSupport.asPerson;

/**
 * The operators' API of resource servers: only operators, with their own token; every field
 * checked (422 naming it); the deployment's configured ones listed and read only; the credential's
 * secret shown once; and a change, made through this replica or by SQL behind it (as another
 * replica would), seen by every reader of the table: this service and a second, independent one,
 * through LISTEN, and through the periodic read while not listening.
 */
@QuarkusTest
class RegisteredResourceServersTest {

    static final long OPERATOR = 990;

    @Inject
    ResourceServers resources;

    @Inject
    ResourceServerRegistry registry;

    @Inject
    ResourceServerRepository repository;

    @Inject
    AuthConfig config;

    @Inject
    Vertx vertx;

    @Inject
    org.ziggurat.auth.crypto.TokenCrypto crypto;

    /** The operator with their own token: issued without a client. */
    static RequestSpecification operator() {
        return given().header("X-Platform-Token", TestTokens.userWithClient(OPERATOR, "operator", null, "admin"));
    }

    static String uniqueIdentifier() {
        return "https://rs-" + UUID.randomUUID() + ".example.org/api";
    }

    static Map<String, Object> body(String identifier, String format) {
        Map<String, Object> body = new HashMap<>();
        body.put("identifier", identifier);
        body.put("name", "Storage of tests");
        body.put("scopes", List.of("write", "user"));
        body.put("access_token_format", format);
        return body;
    }

    /** A registered resource server: its view, with the secret. */
    static ExtractableResponse<Response> register(Map<String, Object> body) {
        return operator().contentType("application/json").body(body).post("/resource-servers").then().statusCode(201)
                .extract();
    }

    @Test
    void onlyOperatorsWithTheirOwnTokenManageResourceServers() {
        String id = register(body(uniqueIdentifier(), "jwt")).path("id");
        given().get("/resource-servers").then().statusCode(401);
        given().contentType("application/json").body(body(uniqueIdentifier(), "jwt")).post("/resource-servers").then()
                .statusCode(401);
        for (RequestSpecification refused : List.of(asPerson(900, "owner", "admin"), asPerson(OPERATOR, "operator", "user"),
                // An application an operator authorized acts as no operator.
                given().header("X-Platform-Token", TestTokens.userWithClient(OPERATOR, "operator", "some-client", "admin")))) {
            refused.get("/resource-servers").then().statusCode(403);
        }
        asPerson(900, "owner", "admin").get("/resource-servers/" + id).then().statusCode(403);
        asPerson(900, "owner", "admin").contentType("application/json").body(Map.of("name", "Mine"))
                .patch("/resource-servers/" + id).then().statusCode(403);
        asPerson(900, "owner", "admin").post("/resource-servers/" + id + "/secret").then().statusCode(403);
        asPerson(900, "owner", "admin").delete("/resource-servers/" + id).then().statusCode(403);
        asPerson(900, "owner", "admin").contentType("application/json").body(body(uniqueIdentifier(), "jwt"))
                .post("/resource-servers").then().statusCode(403);
        operator().get("/resource-servers/" + id).then().statusCode(200).body("name", equalTo("Storage of tests"));
    }

    @Test
    void aResourceServersLifeThroughTheApi() {
        String identifier = uniqueIdentifier();
        Map<String, Object> body = body(identifier, "opaque");
        body.put("access_token_lifetime", 600);
        body.put("exchange_client_id", "storage-exchanger");
        ExtractableResponse<Response> created = register(body);
        String id = created.path("id");
        String clientId = created.path("client_id");
        String secret = created.path("client_secret");
        assertTrue(clientId.startsWith("rs_"), clientId);
        assertTrue(secret.startsWith("zcs_"), "a secret like an application's");
        assertEquals("no-store", created.header("Cache-Control"));
        assertTrue(created.header("Location").endsWith("/resource-servers/" + id), created.header("Location"));
        assertEquals(List.of("user", "write"), created.path("scopes"), "in the platform's order");
        assertEquals("api", created.path("source"));

        // The secret is shown once, and kept only as a keyed hash.
        String read = operator().get("/resource-servers/" + id).then().statusCode(200)
                .body("identifier", equalTo(identifier)).body("access_token_format", equalTo("opaque"))
                .body("access_token_lifetime", equalTo(600)).body("exchange_client_id", equalTo("storage-exchanger"))
                .body("client_id", equalTo(clientId)).extract().asString();
        assertFalse(read.contains("client_secret"), read);
        String list = operator().get("/resource-servers").then().statusCode(200)
                .body("identifier", hasItems(identifier, "https://storage.example.org", "https://compute.example.org/api"))
                .body("find { it.id == 'storage' }.source", equalTo("configuration"))
                .body("find { it.id == 'storage' }.exchange_client_id", equalTo("storage-service"))
                .body("find { it.id == '" + id + "' }.source", equalTo("api")).extract().asString();
        assertFalse(list.contains(secret) || list.contains("client_secret"), "no secret is listed");
        assertEquals("opaque", resources.byIdentifier(identifier).format(), "this replica knows it before answering");

        // A change: the fields named, the others kept; null clears the lifetime and the exchanging client.
        Map<String, Object> change = new HashMap<>();
        change.put("name", "Storage, renamed");
        change.put("access_token_lifetime", null);
        operator().contentType("application/json").body(change).patch("/resource-servers/" + id).then().statusCode(200)
                .body("name", equalTo("Storage, renamed")).body("access_token_lifetime", equalTo(null))
                .body("exchange_client_id", equalTo("storage-exchanger")).body("scopes", equalTo(List.of("user", "write")));
        assertNull(resources.byIdentifier(identifier).lifetime());
        operator().contentType("application/json").body(Map.of("identifier", identifier, "scopes", List.of("user")))
                .patch("/resource-servers/" + id).then().statusCode(200).body("scopes", equalTo(List.of("user")));

        // A new credential: shown once; the old secret stops (ResourceServerTokensTest proves it at introspection).
        String newSecret = operator().post("/resource-servers/" + id + "/secret").then().statusCode(200)
                .body("client_id", equalTo(clientId)).extract().path("client_secret");
        assertNotNull(newSecret);
        assertFalse(newSecret.equals(secret));

        operator().delete("/resource-servers/" + id).then().statusCode(204);
        operator().get("/resource-servers/" + id).then().statusCode(404);
        operator().delete("/resource-servers/" + id).then().statusCode(404);
        operator().post("/resource-servers/" + id + "/secret").then().statusCode(404);
        assertNull(resources.byIdentifier(identifier), "gone from this replica before the answer");
        assertNull(resources.credential(clientId));
        operator().get("/resource-servers/nothing-like-this").then().statusCode(404);
    }

    @Test
    void everyFieldIsCheckedAndNamed() {
        operator().contentType("application/json").body("[]").post("/resource-servers").then().statusCode(400);
        operator().contentType("application/json").body("{}").post("/resource-servers").then().statusCode(422)
                .body("errors.field", hasItems("identifier", "name", "scopes"));
        Map<String, Object> bad = new HashMap<>();
        bad.put("identifier", "https://x.example.org/#fragment");
        bad.put("name", "line\nbreak");
        bad.put("scopes", List.of("user", "everything"));
        bad.put("access_token_format", "paseto");
        bad.put("access_token_lifetime", 7200);
        bad.put("exchange_client_id", "not a client id");
        operator().contentType("application/json").body(bad).post("/resource-servers").then().statusCode(422)
                .body("errors.field", hasItems("identifier", "name", "scopes", "access_token_format", "access_token_lifetime",
                        "exchange_client_id"));
        for (Object identifier : List.of("storage", "urn:example:storage", 7, "https://" + "a".repeat(2000) + ".org")) {
            Map<String, Object> body = body("x", "jwt");
            body.put("identifier", identifier);
            operator().contentType("application/json").body(body).post("/resource-servers").then().statusCode(422)
                    .body("errors.field", equalTo(List.of("identifier")));
        }
        for (Object scopes : List.of(List.of(), "user", List.of(7))) {
            Map<String, Object> body = body(uniqueIdentifier(), "jwt");
            body.put("scopes", scopes);
            operator().contentType("application/json").body(body).post("/resource-servers").then().statusCode(422)
                    .body("errors.field", equalTo(List.of("scopes")));
        }
        for (Object lifetime : List.of(59, 7200, "600", 1.5)) {
            Map<String, Object> body = body(uniqueIdentifier(), "jwt");
            body.put("access_token_lifetime", lifetime);
            operator().contentType("application/json").body(body).post("/resource-servers").then().statusCode(422)
                    .body("errors.field", equalTo(List.of("access_token_lifetime")));
        }
        // Taken identifiers: the platform's API, a configured one, a registered one.
        for (String taken : List.of("http://localhost:8080/api", "https://storage.example.org")) {
            operator().contentType("application/json").body(body(taken, "jwt")).post("/resource-servers").then().statusCode(409);
        }
        String identifier = uniqueIdentifier();
        String id = register(body(identifier, "jwt")).path("id");
        operator().contentType("application/json").body(body(identifier, "opaque")).post("/resource-servers").then()
                .statusCode(409);
        // The identifier is set once; a change is checked as a creation is.
        operator().contentType("application/json").body(Map.of("identifier", uniqueIdentifier()))
                .patch("/resource-servers/" + id).then().statusCode(422).body("errors.field", equalTo(List.of("identifier")));
        operator().contentType("application/json").body(Map.of("scopes", List.of("root"), "access_token_format", "x"))
                .patch("/resource-servers/" + id).then().statusCode(422)
                .body("errors.field", hasItems("scopes", "access_token_format"));
        operator().contentType("application/json").body("\"name\"").patch("/resource-servers/" + id).then().statusCode(400);
        // Default format: jwt, what a resource server that checks tokens itself takes.
        Map<String, Object> noFormat = body(uniqueIdentifier(), "jwt");
        noFormat.remove("access_token_format");
        register(noFormat);
        operator().contentType("application/json").body(noFormat).post("/resource-servers").then().statusCode(409);
        assertEquals("jwt", resources.byIdentifier((String) noFormat.get("identifier")).format());
    }

    /**
     * Attack: a replica that does not hear changes (its LISTEN connection down) kept a resource
     * server's credential from its last read: a replaced secret, or a removed resource server's,
     * still introspected there, seconds or, while its reads failed, for as long as they did. Such a
     * replica checks a credential against the table.
     */
    @Test
    void aReplicaThatDoesNotListenChecksACredentialAgainstTheTable() {
        ResourceServers elsewhere = new ResourceServers("http://localhost:8080/api", List.of());
        ResourceServerRegistry otherReplica = new ResourceServerRegistry(config, vertx, elsewhere, repository);
        ResourceServerCredentials otherCredentials = new ResourceServerCredentials(elsewhere, crypto, otherReplica, repository);
        String identifier = uniqueIdentifier();
        ExtractableResponse<Response> created;
        otherReplica.start(null);
        try {
            await(otherReplica::listening, "the other replica listens");
            created = register(body(identifier, "opaque"));
            String clientId = created.path("client_id");
            await(() -> elsewhere.credential(clientId) != null, "the other replica knows the credential");
            assertEquals(identifier, authenticate(otherCredentials, clientId, created.path("client_secret")).identifier());
        } finally {
            otherReplica.stop(null);
        }
        assertFalse(otherReplica.listening());
        String id = created.path("id");
        String clientId = created.path("client_id");
        String oldSecret = created.path("client_secret");
        String newSecret = operator().post("/resource-servers/" + id + "/secret").then().statusCode(200).extract()
                .path("client_secret");
        // Its snapshot, which nothing reads again outside Quarkus' scheduler, still has the old secret.
        assertTrue(crypto.matches(oldSecret, elsewhere.credential(clientId).secretHash()));
        var refused = org.junit.jupiter.api.Assertions.assertThrows(org.ziggurat.auth.oauth.OAuthException.class,
                () -> authenticate(otherCredentials, clientId, oldSecret));
        assertEquals("invalid_client", refused.error().code());
        assertEquals(identifier, authenticate(otherCredentials, clientId, newSecret).identifier());

        operator().delete("/resource-servers/" + id).then().statusCode(204);
        assertNotNull(elsewhere.credential(clientId), "the snapshot still has the removed one");
        assertNull(authenticate(otherCredentials, clientId, newSecret), "no resource server's credential: no application's either");
    }

    private static ResourceServers.Credential authenticate(ResourceServerCredentials credentials, String clientId, String secret) {
        return credentials.authenticate(new org.ziggurat.auth.clients.ClientCredentials.Claimed(clientId, secret, true, null))
                .await().indefinitely();
    }

    /** Attack: a lifetime past 2^63 once wrapped (2^64 + 120 was stored as 120 seconds); it is refused, as a creation and a change. */
    @Test
    void aLifetimeTooLargeForANumberIsRefusedNotWrapped() {
        for (Object lifetime : List.of(new java.math.BigInteger("18446744073709551736"), new java.math.BigInteger(
                "-18446744073709551496"), -120, 2147483768L)) {
            Map<String, Object> body = body(uniqueIdentifier(), "jwt");
            body.put("access_token_lifetime", lifetime);
            operator().contentType("application/json").body(body).post("/resource-servers").then().statusCode(422)
                    .body("errors.field", equalTo(List.of("access_token_lifetime")));
            assertNull(resources.byIdentifier((String) body.get("identifier")), "nothing stored for " + lifetime);
        }
        String id = register(body(uniqueIdentifier(), "jwt")).path("id");
        operator().contentType("application/json").body("{\"access_token_lifetime\": 18446744073709551736}")
                .patch("/resource-servers/" + id).then().statusCode(422)
                .body("errors.field", equalTo(List.of("access_token_lifetime")));
        operator().get("/resource-servers/" + id).then().statusCode(200).body("access_token_lifetime", equalTo(null));
    }

    @Test
    void theConfiguredOnesAreReadOnly() {
        operator().get("/resource-servers/storage").then().statusCode(200).body("identifier",
                equalTo("https://storage.example.org")).body("source", equalTo("configuration"))
                .body("scopes", equalTo(List.of("user", "write")));
        operator().contentType("application/json").body(Map.of("name", "x")).patch("/resource-servers/storage").then()
                .statusCode(409);
        operator().post("/resource-servers/storage/secret").then().statusCode(409);
        operator().delete("/resource-servers/compute").then().statusCode(409);
        operator().get("/resource-servers/compute").then().statusCode(200);
    }

    @Test
    void itsProtectedResourceMetadataIsPublic() {
        String identifier = uniqueIdentifier();
        String id = register(body(identifier, "jwt")).path("id");
        given().get("/resource-servers/" + id + "/metadata").then().statusCode(200)
                .body("resource", equalTo(identifier)).body("authorization_servers", equalTo(List.of("http://localhost:8080/api")))
                .body("scopes_supported", equalTo(List.of("user", "write"))).body("bearer_methods_supported", equalTo(List.of("header")))
                .body("dpop_signing_alg_values_supported", hasItem("ES256")).body("resource_name", equalTo("Storage of tests"));
        given().get("/resource-servers/storage/metadata").then().statusCode(200).body("resource", equalTo("https://storage.example.org"));
        given().get("/resource-servers/404404/metadata").then().statusCode(404);
    }

    /**
     * What another replica does is a statement on the table: the trigger's notification makes this
     * service read it again; a second reader of its own (another replica's registry, outside
     * Quarkus) sees this service's changes too; and a reader that does not listen reads the table
     * on its schedule.
     */
    @Test
    void aChangeMadeElsewhereIsSeenByEveryReader() throws Exception {
        await(registry::listening, "this service listens");
        ResourceServers elsewhere = new ResourceServers("http://localhost:8080/api", List.of());
        ResourceServerRegistry otherReplica = new ResourceServerRegistry(config, vertx, elsewhere, repository);
        otherReplica.start(null);
        try {
            await(otherReplica::listening, "the other reader listens");
            String bySql = uniqueIdentifier();
            try (Connection c = ServiceDatabase.connect()) {
                c.createStatement().execute("INSERT INTO auth.resource_server (identifier, name, scopes, access_token_format, "
                        + "client_id, client_secret_hash) VALUES ('" + bySql + "', 'By hand', '{user}', 'opaque', 'rs_byhand"
                        + UUID.randomUUID().toString().replace("-", "").substring(0, 12) + "', '\\x00')");
            }
            await(() -> resources.byIdentifier(bySql) != null, "this service sees the row written by SQL");
            await(() -> elsewhere.byIdentifier(bySql) != null, "the other reader sees it too");

            String byApi = uniqueIdentifier();
            String id = register(body(byApi, "jwt")).path("id");
            await(() -> elsewhere.byIdentifier(byApi) != null, "the other reader sees the API's change");
            operator().delete("/resource-servers/" + id).then().statusCode(204);
            await(() -> elsewhere.byIdentifier(byApi) == null, "and its removal");
            try (Connection c = ServiceDatabase.connect()) {
                c.createStatement().execute("UPDATE auth.resource_server SET access_token_format = 'jwt' WHERE identifier = '"
                        + bySql + "'");
            }
            await(() -> "jwt".equals(resources.byIdentifier(bySql).format()), "a change by SQL");
            // The other reader's read of that change done too: one still under way would see the deletion below.
            await(() -> "jwt".equals(elsewhere.byIdentifier(bySql).format()), "the other reader sees the change by SQL");

            // Not listening: the periodic read (every ziggurat.auth.resource-server-refresh-every) takes over.
            otherReplica.stop(null);
            try (Connection c = ServiceDatabase.connect()) {
                c.createStatement().execute("DELETE FROM auth.resource_server WHERE identifier = '" + bySql + "'");
            }
            await(() -> resources.byIdentifier(bySql) == null, "this service hears the deletion");
            assertFalse(otherReplica.listening());
            assertNotNull(elsewhere.byIdentifier(bySql), "the other reader heard nothing");
            otherReplica.readWhileNotListening().await().indefinitely();
            assertNull(elsewhere.byIdentifier(bySql), "and reads the table on its schedule");
        } finally {
            otherReplica.stop(null);
        }
    }

    static void await(Callable<Boolean> condition, String what) {
        // Notifications arrive within milliseconds of the commit; the bound is only for a busy machine.
        Awaitility.await(what).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(condition);
    }
}
