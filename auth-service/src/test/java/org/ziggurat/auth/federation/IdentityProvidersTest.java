package org.ziggurat.auth.federation;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.UpstreamDouble;
import org.ziggurat.platform.testing.TestTokens;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.OAuthTestSupport.asPerson;

/**
 * The operators' API of identity providers: only operators; configured providers read only; a
 * provider added here is offered at once on this replica and signs people in; a secret is sealed
 * and never shown; a change another replica made (a row written straight to the table) is seen
 * within the refresh period, as every replica reads the table again.
 */
@QuarkusTest
class IdentityProvidersTest {

    private static final long OPERATOR = 990;

    @Inject
    Pool pool;

    /** The operator with their own token: issued without a client (the password grant the platform's tools use). */
    private static io.restassured.specification.RequestSpecification operator() {
        return given().header("X-Platform-Token", TestTokens.userWithClient(OPERATOR, "operator", null, "admin"));
    }

    private static String realmB() {
        return ConfigProvider.getConfig().getValue("ziggurat.auth.federation.providers.partner.issuer", String.class);
    }

    private static Map<String, Object> campus(String secret) {
        Map<String, Object> body = new HashMap<>();
        body.put("kind", "oidc");
        body.put("issuer", realmB());
        body.put("display_name", "Campus");
        body.put("client_id", UpstreamDouble.CLIENT_ID);
        if (secret != null) {
            body.put("client_secret", secret);
        }
        return body;
    }

    private static boolean offered(String words) {
        return given().get("/account").asString().contains(words);
    }

    @Test
    void onlyOperatorsSeeAndChangeProviders() {
        given().get("/identity-providers").then().statusCode(401);
        asPerson(900, "owner", "admin").get("/identity-providers").then().statusCode(403);
        asPerson(OPERATOR, "operator", "user").get("/identity-providers").then().statusCode(403);
        asPerson(900, "owner", "admin").contentType("application/json").body(campus("s")).put("/identity-providers/campus-x")
                .then().statusCode(403);
        Response list = operator().get("/identity-providers");
        list.then().statusCode(200).body("id", hasItems("github", "institution", "orcid", "partner"))
                .body("find { it.id == 'institution' }.source", equalTo("configuration"))
                .body("find { it.id == 'institution' }.client_secret_set", equalTo(true));
        assertFalse(list.asString().contains(UpstreamDouble.CLIENT_SECRET), "no secret is ever shown");
        operator().contentType("application/json").body(campus("s")).put("/identity-providers/institution").then().statusCode(409);
        operator().delete("/identity-providers/institution").then().statusCode(409);
    }

    /**
     * Any application may ask a person for the admin scope: an operator's token issued to one (a
     * third party the operator authorized) lists, adds and removes no provider.
     */
    @Test
    void anOperatorsTokenIssuedToAnApplicationManagesNoProvider() {
        var throughAnApplication = (java.util.function.Supplier<io.restassured.specification.RequestSpecification>) () -> given()
                .header("X-Platform-Token", TestTokens.userWithClient(OPERATOR, "operator", "third-party", "admin"));
        throughAnApplication.get().get("/identity-providers").then().statusCode(403)
                .body("detail", org.hamcrest.Matchers.containsString("own token (issued without a client)"));
        throughAnApplication.get().contentType("application/json").body(campus("s")).put("/identity-providers/rogue").then()
                .statusCode(403);
        operator().get("/identity-providers").then().statusCode(200).body("id", not(hasItems("rogue")));
        throughAnApplication.get().delete("/identity-providers/partner").then().statusCode(403);
        // The tests' usual token is issued to a client (test-client) too: refused as well.
        asPerson(OPERATOR, "operator", "admin").get("/identity-providers").then().statusCode(403);
    }

    @Test
    void badProvidersAreRefusedWithTheFieldNamed() {
        Map<String, Object> noIssuer = campus("s");
        noIssuer.remove("issuer");
        operator().contentType("application/json").body(noIssuer).put("/identity-providers/bad-1").then().statusCode(422)
                .body("errors[0].field", equalTo("provider")).body("errors[0].message", containsString("issuer"));
        Map<String, Object> kind = campus("s");
        kind.put("kind", "saml");
        operator().contentType("application/json").body(kind).put("/identity-providers/bad-2").then().statusCode(422)
                .body("errors[0].field", equalTo("kind"));
        Map<String, Object> auth = campus("s");
        auth.put("client_auth", "private_key_jwt");
        operator().contentType("application/json").body(auth).put("/identity-providers/bad-3").then().statusCode(422);
        Map<String, Object> ftp = campus("s");
        ftp.put("issuer", "ftp://idp.example");
        operator().contentType("application/json").body(ftp).put("/identity-providers/bad-4").then().statusCode(422);
        operator().contentType("application/json").body(campus("s")).put("/identity-providers/Bad_Id").then().statusCode(404);
        operator().contentType("application/json").body("[]").put("/identity-providers/bad-5").then().statusCode(400);
        operator().delete("/identity-providers/never-was").then().statusCode(404);
        assertEquals(0, pool.query("SELECT count(*) FROM upstream_provider WHERE id LIKE 'bad-%'").execute()
                .await().atMost(Duration.ofSeconds(10)).iterator().next().getLong(0), "nothing refused was kept");
    }

    @Test
    void anAddedProviderSignsPeopleInAtOnceAndItsSecretIsSealed() {
        operator().contentType("application/json").body(campus(UpstreamDouble.CLIENT_SECRET)).put("/identity-providers/campus")
                .then().statusCode(201).body("source", equalTo("api")).body("client_secret_set", equalTo(true))
                .body("issuer", equalTo(realmB())).body(not(containsString(UpstreamDouble.CLIENT_SECRET)));
        assertTrue(offered("Sign in with Campus"), "offered on this replica at once");
        byte[] sealed = pool.preparedQuery("SELECT client_secret_sealed FROM upstream_provider WHERE id = $1")
                .execute(Tuple.of("campus")).await().atMost(Duration.ofSeconds(10)).iterator().next().getBuffer(0).getBytes();
        assertFalse(new String(sealed, StandardCharsets.ISO_8859_1).contains(UpstreamDouble.CLIENT_SECRET), "sealed at rest");

        // A replacement without a secret keeps the stored one: the sign-in (whose token request needs it) works.
        Map<String, Object> renamed = campus(null);
        renamed.put("display_name", "Campus Login");
        operator().contentType("application/json").body(renamed).put("/identity-providers/campus").then().statusCode(200)
                .body("client_secret_set", equalTo(true));
        assertTrue(offered("Sign in with Campus Login"));
        org.ziggurat.auth.pages.AuthorizeFlowTestAccess.Browser browser = new org.ziggurat.auth.pages.AuthorizeFlowTestAccess.Browser();
        Response answer = org.ziggurat.auth.pages.AuthorizeFlowTestAccess.signInThrough(browser, "campus", "campus-person-1");
        assertEquals(303, answer.statusCode(), answer.asString());
        assertTrue(answer.getHeader("Location").endsWith("/account/federation/identity"), "proven: on to the choice");

        operator().delete("/identity-providers/campus").then().statusCode(204);
        assertFalse(offered("Sign in with Campus"));
        operator().delete("/identity-providers/campus").then().statusCode(404);
    }

    @Test
    void anotherReplicasChangeIsSeenWithinTheRefresh() {
        // As another replica writes it: straight to the table.
        pool.preparedQuery("INSERT INTO upstream_provider (id, kind, issuer, client_id, display_name) VALUES ($1, 'oidc', $2, $3, $4)")
                .execute(Tuple.of("elsewhere", realmB(), UpstreamDouble.CLIENT_ID, "Elsewhere U"))
                .await().atMost(Duration.ofSeconds(10));
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> offered("Sign in with Elsewhere U"));
        pool.preparedQuery("UPDATE upstream_provider SET display_name = 'Elsewhere University', updated_at = clock_timestamp() "
                + "WHERE id = $1").execute(Tuple.of("elsewhere")).await().atMost(Duration.ofSeconds(10));
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> offered("Sign in with Elsewhere University"));
        pool.preparedQuery("DELETE FROM upstream_provider WHERE id = $1").execute(Tuple.of("elsewhere"))
                .await().atMost(Duration.ofSeconds(10));
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !offered("Elsewhere"));
    }

    private static String realm(String name) {
        return realmB().substring(0, realmB().length() - 1) + name;
    }

    /** A provider the address rules should refuse (named apart from the other tests' "Campus"). */
    private static Map<String, Object> near(String issuer) {
        Map<String, Object> body = campus("s");
        body.put("display_name", "Nearby");
        body.put("issuer", issuer);
        return body;
    }

    @Test
    void providerEndpointsAreHeldToTheWebhookAddressRules() {
        Map<String, Object> privateIssuer = near("https://10.1.2.3/realms/x");
        operator().contentType("application/json").body(privateIssuer).put("/identity-providers/near-1").then().statusCode(422)
                .body("errors[0].field", equalTo("issuer")).body("errors[0].message", containsString("private or reserved"));
        Map<String, Object> otherLoopback = near(realmB().replace("127.0.0.1", "127.0.0.2"));
        operator().contentType("application/json").body(otherLoopback).put("/identity-providers/near-2").then().statusCode(422)
                .body("errors[0].field", equalTo("issuer"));
        Map<String, Object> credentials = near("https://user:secret@idp.example/realm");
        operator().contentType("application/json").body(credentials).put("/identity-providers/near-3").then().statusCode(422)
                .body("errors[0].message", containsString("credentials"));
        Map<String, Object> metadata = new HashMap<>();
        metadata.put("kind", "github");
        metadata.put("client_id", "c");
        metadata.put("token_endpoint", "https://169.254.169.254/latest/meta-data");
        operator().contentType("application/json").body(metadata).put("/identity-providers/near-4").then().statusCode(422)
                .body("errors[0].field", equalTo("token_endpoint"));
        assertEquals(0, pool.query("SELECT count(*) FROM upstream_provider WHERE id LIKE 'near-%'").execute()
                .await().atMost(Duration.ofSeconds(10)).iterator().next().getLong(0), "nothing refused was kept");
    }

    @Test
    void aKeySetBehindARedirectIsNotFetched() {
        Map<String, Object> moved = campus(UpstreamDouble.CLIENT_SECRET);
        moved.put("issuer", realm("moved"));
        moved.put("display_name", "Moved Keys");
        operator().contentType("application/json").body(moved).put("/identity-providers/moved-keys").then().statusCode(201);
        org.ziggurat.auth.pages.AuthorizeFlowTestAccess.Browser browser = new org.ziggurat.auth.pages.AuthorizeFlowTestAccess.Browser();
        Response answer = org.ziggurat.auth.pages.AuthorizeFlowTestAccess.signInThrough(browser, "moved-keys", "moved-person-1");
        assertEquals(401, answer.statusCode(), "its jwks_uri redirects: no keys, nothing verified: " + answer.asString());
        operator().delete("/identity-providers/moved-keys").then().statusCode(204);
    }

    @Test
    void aNewIssuerIsANewProviderItGetsNeitherTheSecretNorTheLinks() {
        Map<String, Object> first = campus(UpstreamDouble.CLIENT_SECRET);
        first.put("issuer", realm("a"));
        first.put("display_name", "Repointed");
        operator().contentType("application/json").body(first).put("/identity-providers/repointed").then().statusCode(201);
        org.ziggurat.auth.pages.AuthorizeFlowTestAccess.Browser browser = new org.ziggurat.auth.pages.AuthorizeFlowTestAccess.Browser();
        assertTrue(org.ziggurat.auth.pages.AuthorizeFlowTestAccess.signInThrough(browser, "repointed", "re-pointed-1")
                .getHeader("Location").endsWith("/account/federation/identity"));
        assertEquals(303, org.ziggurat.auth.pages.AuthorizeFlowTestAccess.createAccount(browser, "re-pointed-one",
                "re-pointed-1@uni.example").statusCode(), "an account with the address the provider verified");

        // The same id, another issuer: the stored secret is not kept (it would go to the new issuer).
        Map<String, Object> elsewhere = campus(null);
        elsewhere.put("issuer", realm("b"));
        elsewhere.put("display_name", "Repointed");
        operator().contentType("application/json").body(elsewhere).put("/identity-providers/repointed").then().statusCode(200)
                .body("client_secret_set", equalTo(false)).body("issuer", equalTo(realm("b")));
        elsewhere.put("client_secret", UpstreamDouble.CLIENT_SECRET);
        operator().contentType("application/json").body(elsewhere).put("/identity-providers/repointed")
                .then().statusCode(200).body("client_secret_set", equalTo(true));
        // Its subject "re-pointed-1" is not the first issuer's: it signs nobody in, it leads to the choice.
        org.ziggurat.auth.pages.AuthorizeFlowTestAccess.Browser other = new org.ziggurat.auth.pages.AuthorizeFlowTestAccess.Browser();
        Response answer = org.ziggurat.auth.pages.AuthorizeFlowTestAccess.signInThrough(other, "repointed", "re-pointed-1");
        assertEquals(303, answer.statusCode(), answer.asString());
        assertTrue(answer.getHeader("Location").endsWith("/account/federation/identity"),
                "the link was the first issuer's: " + answer.getHeader("Location"));
        operator().delete("/identity-providers/repointed").then().statusCode(204);
    }
}
