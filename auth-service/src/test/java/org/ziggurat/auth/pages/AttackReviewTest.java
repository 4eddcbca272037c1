package org.ziggurat.auth.pages;

import com.nimbusds.jose.jwk.JWKSet;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport.App;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.Browser;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.CALLBACK;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.enc;
import static org.ziggurat.auth.pages.TrustedClientsTest.OPERATOR;
import static org.ziggurat.auth.pages.TrustedClientsTest.patch;

/**
 * An outside review of the claims-param branch (attacker's view): each test shows a way in that the
 * branch leaves open, and fails until it is closed.
 */
@QuarkusTest
class AttackReviewTest {

    /**
     * operator_registered is a second, hidden trust mark: it shows nowhere (no view, no audit event),
     * and an operator's only lever on an application's trust, the verified mark, does not touch it.
     * An application registered with the deployment's initial access token (whose registration
     * access token is the registrant's, a third party) that an operator distrusts and takes the mark
     * from still hears prompt=none's answers straight at its redirect URI: a silent "is this visitor
     * signed in" oracle, and an open redirect through this server's own address, that nobody can end
     * short of deleting the application.
     */
    @Test
    void anOperatorTakingTheVerifiedMarkAwayEndsTheSilentAnswersOfAnOperatorRegisteredApplication() {
        var registered = given().header("Authorization", "Bearer test-initial-access-token-0123456789abcdef")
                .contentType("application/json").body("{\"client_name\": \"Onboarded partner\", \"redirect_uris\": [\""
                        + CALLBACK + "\"], \"scope\": \"openid\"}")
                .post("/oauth/register").then().statusCode(201).extract();
        String clientId = registered.path("client_id");
        String silentUrl = "/oauth/authorize?response_type=code&client_id=" + clientId + "&redirect_uri=" + enc(CALLBACK)
                + "&scope=openid&prompt=none&state=probe";
        Response before = new Browser().get(silentUrl);
        assertEquals(303, before.statusCode(), "trusted as registered: " + before.asString());

        // The operator looks the application up by client_id and takes its trust away: verified, then not.
        // (The test finds its id through the configured owner's list: registration.owner=900.)
        long id = org.ziggurat.auth.OAuthTestSupport.asPerson(900, "registrar", "admin").get("/applications").then()
                .statusCode(200).extract().jsonPath()
                .getLong("find { it.client_id == '" + clientId + "' }.id");
        App app = new App(id, clientId, null);
        patch(OPERATOR, "operator", app, "{\"verified\": true}").statusCode(200);
        patch(OPERATOR, "operator", app, "{\"verified\": false}").statusCode(200);

        Response after = new Browser().get(silentUrl);
        assertEquals(200, after.statusCode(), "no silent redirect once an operator took the trust away; Location: "
                + after.getHeader("Location"));
        assertNull(after.getHeader("Location"));
    }

    /**
     * Core §6.2 request_uri: every anonymous GET /oauth/authorize naming a registered request_uri
     * makes this server fetch it again, with no cache (the fragment, which Core gives exactly so the
     * content may be cached, is thrown away) and no limit, unlike a client's jwks_uri (kept five
     * minutes, refreshed at most every 30 seconds). Anyone with an admin token registers up to five
     * request_uris on any third party's host (nothing proves the host is the client's), then points
     * a botnet of plain browsers, or one script, at the authorization endpoint: the provider becomes
     * an amplifying HTTP client against that host (up to 1 MiB read per call), and against any host
     * in the operator's federation allowed-networks.
     */
    @Test
    void aRequestObjectByReferenceIsNotFetchedAgainForEveryAnonymousRequest() throws Exception {
        AtomicInteger fetches = new AtomicInteger();
        Vertx vertx = Vertx.vertx();
        try {
            HttpServer server = vertx.createHttpServer().requestHandler(request -> {
                fetches.incrementAndGet();
                request.response().setStatusCode(200).putHeader("Content-Type", "application/oauth-authz-req+jwt")
                        .end("victim.example.org answers this for every request");
            }).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            String target = "http://127.0.0.1:" + server.actualPort() + "/some/expensive/page";
            Map<String, Object> registered = RelyingPartyMetadataTest.register(RelyingPartyMetadataTest.relyingParty(
                    "jwks", new JWKSet(RequestObjectTest.KEY.toPublicJWK()).toJSONObject(), "request_uris", List.of(target)));
            String clientId = (String) registered.get("client_id");
            for (int i = 0; i < 20; i++) {
                // No session, no cookie, no credentials: anyone's browser.
                Response page = new Browser().get(RelyingPartyMetadataTest.url(clientId, "scope", "openid", "request_uri", target));
                assertEquals(400, page.statusCode());
                assertTrue(page.asString().contains("not a JWT"), page.asString());
            }
            assertTrue(fetches.get() <= 2, "20 anonymous requests made this server call the registered address "
                    + fetches.get() + " times");
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    /**
     * The error page of a request_uri that cannot be read tells an anonymous visitor what the
     * provider's own network said: how the host resolved (an internal name's private address), or
     * the status an address inside the operator's allowed networks answered. A client registered by
     * anyone with an admin token (request_uris are not checked at registration, and RFC 7592 PUT
     * changes them at will) turns the authorization endpoint into a scanner of the provider's network.
     */
    @Test
    void theRequestUriErrorPageDoesNotTellWhatTheProvidersNetworkAnswered() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            // Stands for an internal service in the allowed networks (the tests allow 127.0.0.1/32).
            HttpServer internal = vertx.createHttpServer().requestHandler(request -> request.response().setStatusCode(
                    request.path().equals("/admin") ? 401 : 404).end()).listen(0, "127.0.0.1")
                    .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            String admin = "http://127.0.0.1:" + internal.actualPort() + "/admin";
            String privateHost = "https://192.168.77.7/ro";
            Map<String, Object> registered = RelyingPartyMetadataTest.register(RelyingPartyMetadataTest.relyingParty(
                    "jwks", new JWKSet(RequestObjectTest.KEY.toPublicJWK()).toJSONObject(),
                    "request_uris", List.of(admin, privateHost)));
            String clientId = (String) registered.get("client_id");

            String statusPage = new Browser().get(RelyingPartyMetadataTest.url(clientId, "scope", "openid", "request_uri",
                    admin)).asString();
            assertFalse(statusPage.contains("401"), "the internal service's status reaches the visitor: " + statusPage);
            String addressPage = new Browser().get(RelyingPartyMetadataTest.url(clientId, "scope", "openid",
                    "request_uri", privateHost)).asString();
            assertFalse(addressPage.contains("192.168.77.7") || addressPage.contains("private or reserved"),
                    "the provider's address rules and resolution reach the visitor: " + addressPage);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }
}
