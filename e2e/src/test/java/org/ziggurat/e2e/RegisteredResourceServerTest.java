package org.ziggurat.e2e;

import com.nimbusds.jwt.SignedJWT;
import io.restassured.RestAssured;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.e2e.Platform.as;

/**
 * A resource server that registers through the API and takes the platform's tokens with a library
 * nobody here wrote (module e2e-resource-server: quarkus-oidc as a service): the operator registers
 * a research archive that wants JWTs and a catalogue that wants opaque tokens, each gets its own
 * credential, and each process is configured with nothing but the issuer, its identifier and that
 * credential. The archive checks JWTs for its audience itself and honours their Token Status List;
 * the catalogue introspects its opaque tokens with its credential (introspection by audience).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RegisteredResourceServerTest {

    record Registered(String identifier, String clientId, String secret, ResourceServerApp app) {
    }

    String operatorToken;
    Registered archive;
    Registered catalogue;

    @BeforeAll
    void registerAndStart() throws Exception {
        operatorToken = Platform.accessToken(Stack.get().operator(), "user", "admin");
        archive = register("archive", "jwt");
        catalogue = register("catalogue", "opaque");
    }

    Registered register(String name, String format) throws Exception {
        String identifier = "https://" + Platform.uniqueName(name) + ".example.org";
        Map<String, Object> created = as(operatorToken).contentType("application/json")
                .body(Map.of("identifier", identifier, "name", name, "scopes", List.of("user"), "access_token_format", format))
                .post("/resource-servers").then().statusCode(201)
                .body("identifier", equalTo(identifier)).extract().jsonPath().getMap("");
        String clientId = (String) created.get("client_id");
        String secret = (String) created.get("client_secret");
        return new Registered(identifier, clientId, secret, ResourceServerApp.start(name + "-resource-server", identifier, clientId, secret));
    }

    @AfterAll
    void stop() throws InterruptedException {
        for (Registered registered : new Registered[] {archive, catalogue}) {
            if (registered != null) {
                registered.app().stop();
            }
        }
    }

    static int at(Registered server, String token) {
        return RestAssured.given().baseUri(server.app().base()).header("Authorization", "Bearer " + token)
                .get("/archive/whoami").statusCode();
    }

    @Test
    void theArchiveChecksItsJwtsItselfAndRefusesTokensForAnyOtherAudience() throws Exception {
        Platform.Person ada = Platform.signUp("archive-user");
        // The client chose nothing (opaque by default): the archive wants JWTs, so its tokens are JWTs.
        ResourceServerTokensTest.App client = ResourceServerTokensTest.app(ada, Map.of());
        String forArchive = (String) ResourceServerTokensTest.password(client, ada, "user", archive.identifier()).get("access_token");
        assertEquals(List.of(archive.identifier()), SignedJWT.parse(forArchive).getJWTClaimsSet().getAudience());
        RestAssured.given().baseUri(archive.app().base()).header("Authorization", "Bearer " + forArchive).get("/archive/whoami")
                .then().statusCode(200).body("checked_by", equalTo("jwt")).body("sub", equalTo(Long.toString(ada.id())))
                .body("aud", hasItem(archive.identifier())).body("client_id", equalTo(client.clientId()));

        // The platform API's token (opaque) is no archive token: its credential's introspection says inactive.
        String forPlatform = (String) ResourceServerTokensTest.password(client, ada, "user").get("access_token");
        assertEquals(401, at(archive, forPlatform));
        // Nor is the catalogue's (opaque, introspected: not for the archive) or the storage system's.
        String forCatalogue = (String) ResourceServerTokensTest.password(client, ada, "user", catalogue.identifier())
                .get("access_token");
        assertEquals(401, at(archive, forCatalogue));
        // A JWT of the right issuer for another audience: refused by the signature check's audience rule.
        ResourceServerTokensTest.App jwtClient = ResourceServerTokensTest.app(ada, Map.of("access_token_format", "jwt"));
        String forStorage = (String) ResourceServerTokensTest.password(jwtClient, ada, "user", ResourceServerTokensTest.STORAGE)
                .get("access_token");
        assertEquals(3, forStorage.split("\\.").length, "a JWT");
        assertEquals(401, at(archive, forStorage));
    }

    @Test
    void theCatalogueIntrospectsItsOpaqueTokensWithItsOwnCredential() {
        Platform.Person bo = Platform.signUp("catalogue-user");
        // The client chose JWTs; the catalogue wants opaque tokens, and it decides.
        ResourceServerTokensTest.App client = ResourceServerTokensTest.app(bo, Map.of("access_token_format", "jwt"));
        String forCatalogue = (String) ResourceServerTokensTest.password(client, bo, "user", catalogue.identifier())
                .get("access_token");
        assertTrue(!forCatalogue.contains("."), "an opaque token: " + forCatalogue);
        RestAssured.given().baseUri(catalogue.app().base()).header("Authorization", "Bearer " + forCatalogue)
                .get("/archive/whoami").then().statusCode(200).body("checked_by", equalTo("introspection"))
                .body("sub", equalTo(Long.toString(bo.id()))).body("client_id", equalTo(client.clientId()));
        // Its credential answers for its own audience only: the archive's JWT and the platform's token are not its.
        assertEquals(401, at(catalogue, (String) ResourceServerTokensTest.password(client, bo, "user").get("access_token")));
        assertEquals(401, at(catalogue, (String) ResourceServerTokensTest.password(client, bo, "user", archive.identifier())
                .get("access_token")));
        // Revoked: introspection knows at once.
        Platform.offContract().auth().preemptive().basic(client.clientId(), client.secret())
                .contentType("application/x-www-form-urlencoded").formParam("token", forCatalogue)
                .post("/oauth/revoke").then().statusCode(200);
        assertEquals(401, at(catalogue, forCatalogue));
    }

    @Test
    void aRevokedJwtIsRefusedThroughTheStatusListWithoutAskingThePlatform() throws Exception {
        Platform.Person cy = Platform.signUp("status-user");
        ResourceServerTokensTest.App client = ResourceServerTokensTest.app(cy, Map.of());
        String token = (String) ResourceServerTokensTest.password(client, cy, "user", archive.identifier()).get("access_token");
        assertEquals(200, at(archive, token));
        Platform.offContract().auth().preemptive().basic(client.clientId(), client.secret())
                .contentType("application/x-www-form-urlencoded").formParam("token", token)
                .post("/oauth/revoke").then().statusCode(200);
        // The archive keeps a status list for its ttl (2 s in this stack): refused once it fetched the list again.
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).until(() -> at(archive, token) == 401);
        assertTrue(SignedJWT.parse(token).getJWTClaimsSet().getExpirationTime().getTime() > System.currentTimeMillis(),
                "revoked, not expired: only the status list could say so");
        // And a JWT that was not revoked still passes, through the same list.
        String other = (String) ResourceServerTokensTest.password(client, cy, "user", archive.identifier()).get("access_token");
        assertEquals(200, at(archive, other));
    }
}
