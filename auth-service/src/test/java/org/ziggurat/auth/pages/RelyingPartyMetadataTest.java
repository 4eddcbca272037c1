package org.ziggurat.auth.pages;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.SignedJWT;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport.App;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.Browser;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.CALLBACK;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.enc;
import static org.ziggurat.auth.pages.OpenIdConnectTest.authorize;
import static org.ziggurat.auth.pages.OpenIdConnectTest.exchange;

/**
 * What a relying party registers for OpenID Connect (Dynamic Client Registration §2) beyond the
 * application's fields: no scope means OpenID Connect's own three; userinfo_signed_response_alg
 * makes userinfo a signed JWT (Core §5.3.2); request_uris are where its request objects may be
 * fetched from by reference (Core §6.2), and nowhere else.
 */
@QuarkusTest
class RelyingPartyMetadataTest {

    static Map<String, Object> register(Map<String, Object> metadata) {
        return RequestObjectTest.bearer(RequestObjectTest.aliceToken("admin")).body(metadata).post("/oauth/register")
                .then().statusCode(201).extract().jsonPath().getMap("$");
    }

    static Map<String, Object> relyingParty(Object... pairs) {
        Map<String, Object> metadata = new HashMap<>();
        metadata.put("client_name", "Relying party");
        metadata.put("redirect_uris", List.of(CALLBACK));
        for (int i = 0; i < pairs.length; i += 2) {
            metadata.put((String) pairs[i], pairs[i + 1]);
        }
        return metadata;
    }

    static String url(String clientId, String... pairs) {
        StringBuilder url = new StringBuilder("/oauth/authorize?response_type=code&client_id=").append(clientId)
                .append("&redirect_uri=").append(enc(CALLBACK));
        for (int i = 0; i < pairs.length; i += 2) {
            url.append('&').append(pairs[i]).append('=').append(enc(pairs[i + 1]));
        }
        return url.toString();
    }

    @Test
    void aRelyingPartyThatNamesNoScopeGetsOpenIdConnectsOwnAndSignedUserinfoWhenItAsks() throws Exception {
        Map<String, Object> registered = register(relyingParty("userinfo_signed_response_alg", "RS256"));
        assertEquals("openid profile email", registered.get("scope"));
        // One that registers the refresh_token grant may ask for offline_access too (Core §11).
        assertEquals("openid profile email offline_access", register(relyingParty("grant_types",
                List.of("authorization_code", "refresh_token"))).get("scope"));
        assertEquals("RS256", registered.get("userinfo_signed_response_alg"));
        given().get("/.well-known/openid-configuration").then().body("userinfo_signing_alg_values_supported", hasItem("RS256"));
        App app = new App(0, (String) registered.get("client_id"), (String) registered.get("client_secret"));
        Map<String, Object> tokens = exchange(app, authorize(new Browser(), url(app.clientId(), "scope", "openid profile")).get("code"));

        Response userinfo = given().header("Authorization", "Bearer " + tokens.get("access_token")).get("/oauth/userinfo");
        userinfo.then().statusCode(200).contentType("application/jwt");
        SignedJWT jwt = SignedJWT.parse(userinfo.asString());
        assertEquals(JWSAlgorithm.RS256, jwt.getHeader().getAlgorithm());
        JWKSet keys = JWKSet.parse(given().get("/oauth/jwks").then().extract().asString());
        assertTrue(jwt.verify(new RSASSAVerifier((RSAKey) keys.getKeyByKeyId(jwt.getHeader().getKeyID()))));
        assertEquals("http://localhost:8080/api", jwt.getJWTClaimsSet().getIssuer());
        assertEquals(List.of(app.clientId()), jwt.getJWTClaimsSet().getAudience());
        assertEquals("101", jwt.getJWTClaimsSet().getSubject());
        assertEquals("alice", jwt.getJWTClaimsSet().getStringClaim("preferred_username"));

        // An algorithm no ID token is signed with (nor none, nor a shared secret's) is refused.
        for (String alg : List.of("none", "HS256", "PS512")) {
            RequestObjectTest.bearer(RequestObjectTest.aliceToken("admin")).body(relyingParty("userinfo_signed_response_alg", alg))
                    .post("/oauth/register").then().statusCode(400).body("error", equalTo("invalid_client_metadata"));
        }
        // A client that registered no algorithm reads JSON.
        Map<String, Object> plain = register(relyingParty());
        App plainApp = new App(0, (String) plain.get("client_id"), (String) plain.get("client_secret"));
        Map<String, Object> plainTokens = exchange(plainApp, authorize(new Browser(), url(plainApp.clientId(), "scope", "openid"))
                .get("code"));
        given().header("Authorization", "Bearer " + plainTokens.get("access_token")).get("/oauth/userinfo").then()
                .statusCode(200).contentType("application/json").body("sub", equalTo("101"));
    }

    /**
     * Registration §2: the pages show the logo a client registered and link its policy and terms,
     * as the application's; only https addresses, the logo the one image from elsewhere the page allows.
     */
    @Test
    void theSignInAndConsentPagesShowTheApplicationsLogoPolicyAndTerms() {
        Map<String, Object> registered = register(relyingParty("scope", "openid", "logo_uri", "https://rp.example.org/logo.png",
                "policy_uri", "https://rp.example.org/privacy", "tos_uri", "https://rp.example.org/terms"));
        // Only https addresses (http on a loopback host) are registered, so only those are ever shown.
        RequestObjectTest.bearer(RequestObjectTest.aliceToken("admin")).body(relyingParty("tos_uri", "javascript:alert(1)"))
                .post("/oauth/register").then().statusCode(400).body("error", equalTo("invalid_client_metadata"));
        String clientId = (String) registered.get("client_id");
        Browser browser = new Browser();
        Response login = browser.get(url(clientId, "scope", "openid"));
        login.then().statusCode(200);
        String html = login.asString();
        assertTrue(html.contains("<img src=\"https://rp.example.org/logo.png\""), html);
        assertTrue(html.contains("<a href=\"https://rp.example.org/privacy\" id=\"app_policy\" rel=\"noreferrer\">"), html);
        assertTrue(html.contains("<a href=\"https://rp.example.org/terms\" id=\"app_tos\" rel=\"noreferrer\">"), html);
        assertTrue(login.getHeader("Content-Security-Policy").contains("img-src 'self' https://rp.example.org/logo.png;"),
                login.getHeader("Content-Security-Policy"));
        Map<String, String> form = AuthorizeFlowTest.hiddenFields(html);
        form.put("login", "alice");
        form.put("password", "alice password 1");
        Response consent = browser.get(AuthorizeFlowTest.relative(browser.post(form).getHeader("Location")));
        assertTrue(consent.asString().contains("id=\"approve\"") && consent.asString().contains("id=\"app_logo\""),
                consent.asString());
        // An application made through /applications registered none: the page allows no image from elsewhere.
        App plain = OpenIdConnectTest.openIdApp(null);
        Response other = new Browser().get(OpenIdConnectTest.url(plain, "scope", "openid"));
        assertTrue(!other.asString().contains("app_links") && other.getHeader("Content-Security-Policy").contains("img-src 'self';"));
    }

    @Test
    void aRequestObjectIsFetchedByReferenceOnlyFromAnAddressTheApplicationRegistered() throws Exception {
        AtomicReference<String> published = new AtomicReference<>("");
        Vertx vertx = Vertx.vertx();
        try {
            HttpServer server = vertx.createHttpServer().requestHandler(request -> {
                if (request.path().equals("/missing")) {
                    request.response().setStatusCode(404).end();
                } else {
                    request.response().putHeader("Content-Type", "application/oauth-authz-req+jwt").end(published.get());
                }
            }).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            String base = "http://127.0.0.1:" + server.actualPort();
            Map<String, Object> registered = register(relyingParty("scope", "openid profile",
                    "jwks", new JWKSet(RequestObjectTest.KEY.toPublicJWK()).toJSONObject(),
                    "request_uris", List.of(base + "/ro#v1", base + "/missing")));
            String clientId = (String) registered.get("client_id");
            assertEquals(List.of(base + "/ro", base + "/missing"), registered.get("request_uris"));
            published.set(RequestObjectTest.signed(RequestObjectTest.KEY, RequestObjectTest.claims(clientId).build()));

            // The fragment tells versions apart; the address is the rest.
            Map<String, String> answer = authorize(new Browser(), url(clientId, "scope", "openid", "request_uri", base + "/ro#v2"));
            assertEquals("inside-state", answer.get("state"), "the state only inside the fetched request object");

            for (String refused : List.of(base + "/elsewhere", base + "/missing", "https://ro.example.org/ro")) {
                new Browser().get(url(clientId, "scope", "openid", "request_uri", refused)).then().statusCode(400)
                        .header("Location", nullValue());
            }
            // Fetched, it is taken as a request object by value is: another key's signature is refused. New content
            // has a new fragment (Core §6.2); under the old one, what was fetched is kept.
            published.set(RequestObjectTest.signed(RequestObjectTest.key(), RequestObjectTest.claims(clientId).build()));
            new Browser().get(url(clientId, "scope", "openid", "request_uri", base + "/ro#v3")).then().statusCode(400)
                    .header("Location", nullValue());
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }
}
