package org.ziggurat.auth.pages;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import com.nimbusds.oauth2.sdk.dpop.DefaultDPoPProofFactory;
import com.nimbusds.openid.connect.sdk.Nonce;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport;
import org.ziggurat.auth.OAuthTestSupport.App;

import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.OAuthTestSupport.asPerson;
import static org.ziggurat.auth.OAuthTestSupport.introspect;
import static org.ziggurat.auth.OAuthTestSupport.post;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.Browser;

/**
 * Tokens that resource servers check themselves and that are bound to who holds them: JWT access
 * tokens (RFC 9068), resource indicators (RFC 8707), DPoP (RFC 9449), token exchange (RFC 8693),
 * signed introspection answers (RFC 9701), and the metadata that announces them. The resource
 * servers are the tests' configuration: storage (user, write; its service is the client
 * "storage-service") and compute (user).
 */
@QuarkusTest
class ResourceBoundTokensTest {

    static final String ISSUER = "http://localhost:8080/api";
    static final String STORAGE = "https://storage.example.org";
    static final String COMPUTE = "https://compute.example.org/api";
    static final String TOKEN_ENDPOINT = ISSUER + "/oauth/token";
    static final String EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
    static final String ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";

    @Inject
    Pool pool;

    @Inject
    org.ziggurat.auth.authorization.LoginSessions sessions;

    static App app(boolean confidential, String scopes, Map<String, Object> more) {
        Map<String, Object> body = new HashMap<>(more);
        body.put("name", "Resource test app");
        body.put("redirect_uris", List.of(AuthorizeFlowTest.CALLBACK));
        body.put("scopes", scopes);
        body.put("confidential", confidential);
        body.put("password_grant", true);
        var created = asPerson(900, "owner", "admin").contentType("application/json").body(body).post("/applications")
                .then().statusCode(201).extract();
        return new App(((Number) created.path("id")).longValue(), created.path("client_id"), created.path("client_secret"));
    }

    /** A form post with a DPoP proof (null: none); pairs of name, value (repeated names allowed). */
    static ValidatableResponse postWithProof(String proof, App client, String... pairs) {
        RequestSpecification request = given().contentType("application/x-www-form-urlencoded").accept("application/json");
        if (client != null) {
            request = request.auth().preemptive().basic(client.clientId(), client.secret() == null ? "" : client.secret());
        }
        if (proof != null) {
            request = request.header("DPoP", proof);
        }
        StringBuilder form = new StringBuilder();
        for (int i = 0; i < pairs.length; i += 2) {
            if (form.length() > 0) {
                form.append('&');
            }
            form.append(pairs[i]).append('=').append(java.net.URLEncoder.encode(pairs[i + 1], java.nio.charset.StandardCharsets.UTF_8));
        }
        return request.body(form.toString()).post("/oauth/token").then();
    }

    static Map<String, Object> alice(App app, String... more) {
        String[] pairs = new String[6 + more.length];
        System.arraycopy(new String[] {"grant_type", "password", "username", "alice", "password", "alice password 1"}, 0,
                pairs, 0, 6);
        System.arraycopy(more, 0, pairs, 6, more.length);
        return postWithProof(null, app, pairs).statusCode(200).extract().jsonPath().getMap("$");
    }

    static JWKSet jwks() throws Exception {
        return JWKSet.parse(given().get("/oauth/jwks").then().statusCode(200).extract().asString());
    }

    /** What a resource server that only verifies signatures does: the JWKS, the algorithm, the type at+jwt. */
    static JWTClaimsSet verifiedAccessToken(String token) throws Exception {
        DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
        processor.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(new JOSEObjectType("at+jwt")));
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.ES256, new ImmutableJWKSet<>(jwks())));
        return processor.process(token, null);
    }

    static String proof(DefaultDPoPProofFactory factory) throws Exception {
        return factory.createDPoPJWT("POST", URI.create(TOKEN_ENDPOINT)).serialize();
    }

    static DefaultDPoPProofFactory dpopKey() throws Exception {
        ECKey key = new ECKeyGenerator(Curve.P_256).generate();
        return new DefaultDPoPProofFactory(key, JWSAlgorithm.ES256);
    }

    @Test
    void jwtAccessTokensAreVerifiedAgainstTheJwksAndStillRevocable() throws Exception {
        App app = app(true, "openid user write", Map.of("access_token_format", "jwt"));
        asPerson(900, "owner", "admin").get("/applications/" + app.id()).then().statusCode(200)
                .body("access_token_format", equalTo("jwt"));
        Map<String, Object> tokens = alice(app, "scope", "openid user");
        String access = (String) tokens.get("access_token");
        assertEquals("ES256", SignedJWT.parse(access).getHeader().getAlgorithm().getName());
        JWTClaimsSet claims = verifiedAccessToken(access);
        assertEquals(ISSUER, claims.getIssuer());
        assertEquals("101", claims.getSubject());
        assertEquals(List.of(ISSUER), claims.getAudience(), "no resource named: the platform's API");
        assertEquals(app.clientId(), claims.getStringClaim("client_id"));
        assertEquals("user openid", claims.getStringClaim("scope"), "in the platform's order");
        assertNotNull(claims.getJWTID());
        assertEquals(7200, (claims.getExpirationTime().getTime() - claims.getIssueTime().getTime()) / 1000);
        assertNotNull(claims.getLongClaim("auth_time"));
        assertEquals("https://refeds.org/profile/sfa", claims.getStringClaim("acr"));
        assertEquals(((Number) tokens.get("expires_in")).longValue(), 7200);
        introspect(access).statusCode(200).body("active", equalTo(true)).body("sub", equalTo("101"))
                .body("aud", equalTo(List.of(ISSUER))).body("exp", equalTo((int) (claims.getExpirationTime().getTime() / 1000)));

        Map<String, Object> refreshed = post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token",
                (String) tokens.get("refresh_token")).statusCode(200).extract().jsonPath().getMap("$");
        JWTClaimsSet again = verifiedAccessToken((String) refreshed.get("access_token"));
        assertNotEquals(claims.getJWTID(), again.getJWTID());
        assertEquals("user openid", again.getStringClaim("scope"));
        assertEquals(claims.getLongClaim("auth_time"), again.getLongClaim("auth_time"), "the first sign-in's");

        // What signatures alone cannot tell: that it was revoked. Introspection (and the gateway) can.
        post("/oauth/revoke", app, "token", (String) refreshed.get("access_token")).statusCode(200);
        introspect((String) refreshed.get("access_token")).statusCode(200).body("active", equalTo(false));
        verifiedAccessToken((String) refreshed.get("access_token"));

        // A token of another issuer's key is no token here: a forged one is refused at once.
        ECKey forger = new ECKeyGenerator(Curve.P_256).keyID(SignedJWT.parse(access).getHeader().getKeyID()).generate();
        SignedJWT forged = new SignedJWT(SignedJWT.parse(access).getHeader(), claims);
        forged.sign(new com.nimbusds.jose.crypto.ECDSASigner(forger));
        assertThrows(Exception.class, () -> verifiedAccessToken(forged.serialize()));
        introspect(forged.serialize()).statusCode(200).body("active", equalTo(false));
    }

    @Test
    void aResourceNarrowsTheAudienceAndTheScopes() {
        App app = app(true, "user write update", Map.of());
        Map<String, Object> storage = alice(app, "scope", "user write update", "resource", STORAGE);
        assertEquals("user write", storage.get("scope"), "storage understands user and write only");
        introspect((String) storage.get("access_token")).body("aud", equalTo(List.of(STORAGE))).body("scope", equalTo("user write"));
        // Not a token for the platform's own API.
        given().header("Authorization", "Bearer " + storage.get("access_token")).get("/oauth/token/info").then()
                .statusCode(401);
        // The grant was for storage: its refresh tokens get storage tokens, nothing else.
        post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token", (String) storage.get("refresh_token"),
                "resource", COMPUTE).statusCode(400).body("error", equalTo("invalid_target"));
        Map<String, Object> refreshed = post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token",
                (String) storage.get("refresh_token")).statusCode(200).extract().jsonPath().getMap("$");
        introspect((String) refreshed.get("access_token")).body("aud", equalTo(List.of(STORAGE))).body("scope", equalTo("user write"));

        // A grant that named none: each refresh may ask for any resource, narrower.
        Map<String, Object> plain = alice(app, "scope", "user write");
        Map<String, Object> compute = post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token",
                (String) plain.get("refresh_token"), "resource", COMPUTE).statusCode(200).extract().jsonPath().getMap("$");
        assertEquals("user", compute.get("scope"));
        introspect((String) compute.get("access_token")).body("aud", equalTo(List.of(COMPUTE)));
        Map<String, Object> platform = post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token",
                (String) compute.get("refresh_token")).statusCode(200).extract().jsonPath().getMap("$");
        assertEquals("user write", platform.get("scope"), "the refresh token kept the grant's scopes");
        introspect((String) platform.get("access_token")).body("aud", equalTo(List.of(ISSUER)));

        postWithProof(null, app, "grant_type", "password", "username", "alice", "password", "alice password 1",
                "resource", "https://elsewhere.example.org").statusCode(400).body("error", equalTo("invalid_target"));
        postWithProof(null, app, "grant_type", "password", "username", "alice", "password", "alice password 1",
                "resource", STORAGE + "#fragment").statusCode(400).body("error", equalTo("invalid_target"))
                .body("error_description", containsString("fragment"));
        postWithProof(null, app, "grant_type", "password", "username", "alice", "password", "alice password 1",
                "resource", "storage").statusCode(400).body("error", equalTo("invalid_target"));
        // The audience parameter of tools from before RFC 8707 (oidc-agent 4's --aud) names resources too.
        Map<String, Object> byAudience = post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token",
                (String) platform.get("refresh_token"), "audience", COMPUTE).statusCode(200).extract().jsonPath().getMap("$");
        introspect((String) byAudience.get("access_token")).body("aud", equalTo(List.of(COMPUTE))).body("scope", equalTo("user"));
        post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token", (String) byAudience.get("refresh_token"),
                "audience", "https://elsewhere.example.org").statusCode(400).body("error", equalTo("invalid_target"));
        // Two resources: a token for both, with what either understands.
        Map<String, Object> both = alice(app, "scope", "user write", "resource", STORAGE, "resource", COMPUTE);
        assertEquals("user write", both.get("scope"));
        introspect((String) both.get("access_token")).body("aud", equalTo(List.of(STORAGE, COMPUTE)));
    }

    @Test
    void theAuthorizationRequestsResourcesBoundTheCodesTokens() {
        App app = app(true, "openid user write", Map.of());
        Browser browser = new Browser();
        Map<String, String> answer = OpenIdConnectTest.authorize(browser, OpenIdConnectTest.url(app, "scope", "openid user write",
                "resource", STORAGE) + "&resource=" + AuthorizeFlowTest.enc(COMPUTE));
        Map<String, Object> tokens = post("/oauth/token", app, "grant_type", "authorization_code", "code", answer.get("code"),
                "redirect_uri", AuthorizeFlowTest.CALLBACK, "resource", COMPUTE).statusCode(200).extract().jsonPath().getMap("$");
        assertEquals("user", tokens.get("scope"));
        assertNotNull(tokens.get("id_token"), "the ID token is the client's, whatever the access token's audience");
        introspect((String) tokens.get("access_token")).body("aud", equalTo(List.of(COMPUTE)));
        Map<String, Object> storage = post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token",
                (String) tokens.get("refresh_token"), "resource", STORAGE).statusCode(200).extract().jsonPath().getMap("$");
        assertEquals("user write", storage.get("scope"));
        // The platform's API was not among the request's resources.
        post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token", (String) storage.get("refresh_token"),
                "resource", ISSUER).statusCode(400).body("error", equalTo("invalid_target"));
        // An unknown resource is refused on the page, never sent back to the client.
        String page = browser.get(OpenIdConnectTest.url(app, "scope", "user", "resource", "https://elsewhere.example.org"))
                .asString();
        assertTrue(page.contains("invalid_target"), page);
    }

    /**
     * The resource decides the format at the grants a person's browser takes part in too: a
     * registered resource server that takes JWTs gets them from an application that chose opaque
     * tokens, by the code and the device grants (the others: ResourceServerTokensTest).
     */
    @Test
    void theResourceDecidesTheFormatAtTheCodeAndDeviceGrants() throws Exception {
        String identifier = "https://flows-" + java.util.UUID.randomUUID() + ".example.org";
        given().header("X-Platform-Token", org.ziggurat.platform.testing.TestTokens.userWithClient(990, "operator", null, "admin"))
                .contentType("application/json").body(Map.of("identifier", identifier, "name", "Flows", "scopes",
                        List.of("user"), "access_token_format", "jwt")).post("/resource-servers").then().statusCode(201);

        App app = app(true, "openid user write", Map.of());
        Map<String, String> answer = OpenIdConnectTest.authorize(new Browser(), OpenIdConnectTest.url(app, "scope",
                "openid user", "resource", identifier));
        Map<String, Object> tokens = post("/oauth/token", app, "grant_type", "authorization_code", "code", answer.get("code"),
                "redirect_uri", AuthorizeFlowTest.CALLBACK).statusCode(200).extract().jsonPath().getMap("$");
        assertEquals(List.of(identifier), verifiedAccessToken((String) tokens.get("access_token")).getAudience());
        assertTrue(((String) alice(app, "scope", "user").get("access_token")).startsWith("zat_"), "the platform's: opaque");

        App tool = DeviceFlowTest.tool("user");
        Map<String, Object> started = DeviceFlowTest.start(tool, "user");
        DeviceFlowTest.Person person = new DeviceFlowTest.Person();
        Response confirmation = person.sendFilledIn(person.signIn("/oauth/device?user_code=" + started.get("user_code")));
        person.answer(confirmation, "approve").then().statusCode(200);
        String device = given().contentType("application/x-www-form-urlencoded").accept("application/json")
                .formParam("grant_type", DeviceFlowTest.GRANT).formParam("client_id", tool.clientId())
                .formParam("device_code", (String) started.get("device_code")).formParam("resource", identifier)
                .post("/oauth/token").then().statusCode(200).extract().path("access_token");
        assertEquals(List.of(identifier), verifiedAccessToken(device).getAudience());
    }

    @Test
    void dpopBindsTheTokensToTheClientsKey() throws Exception {
        App app = app(false, "user write", Map.of());
        DefaultDPoPProofFactory key = dpopKey();
        String jkt = key.getPublicJWK().computeThumbprint().toString();
        String proof = proof(key);
        Map<String, Object> tokens = postWithProof(proof, app, "grant_type", "password", "username", "alice", "password",
                "alice password 1", "client_id", app.clientId(), "scope", "user")
                .statusCode(200).body("token_type", equalTo("DPoP")).extract().jsonPath().getMap("$");
        String access = (String) tokens.get("access_token");
        introspect(access).body("active", equalTo(true)).body("token_type", equalTo("DPoP")).body("cnf.jkt", equalTo(jkt));
        // Presented as a bearer token, it is no token (RFC 9449 §7.1).
        given().header("Authorization", "Bearer " + access).get("/oauth/token/info").then().statusCode(401);

        // A proof is good once, and only for the token endpoint, and only fresh.
        postWithProof(proof, app, "grant_type", "password", "username", "alice", "password", "alice password 1",
                "client_id", app.clientId()).statusCode(400).body("error", equalTo("invalid_dpop_proof"))
                .body("error_description", containsString("used already"));
        postWithProof(key.createDPoPJWT("POST", URI.create(ISSUER + "/oauth/revoke")).serialize(), app, "grant_type",
                "password", "username", "alice", "password", "alice password 1", "client_id", app.clientId())
                .statusCode(400).body("error", equalTo("invalid_dpop_proof"));
        postWithProof(key.createDPoPJWT("GET", URI.create(TOKEN_ENDPOINT)).serialize(), app, "grant_type",
                "password", "username", "alice", "password", "alice password 1", "client_id", app.clientId())
                .statusCode(400).body("error", equalTo("invalid_dpop_proof"));
        postWithProof(key.createDPoPJWT(new com.nimbusds.oauth2.sdk.id.JWTID(), "POST", URI.create(TOKEN_ENDPOINT),
                new java.util.Date(System.currentTimeMillis() - 600_000), null).serialize(), app, "grant_type", "password",
                "username", "alice", "password", "alice password 1", "client_id", app.clientId())
                .statusCode(400).body("error", equalTo("invalid_dpop_proof"));
        postWithProof("not.a.proof", app, "grant_type", "password", "username", "alice", "password", "alice password 1",
                "client_id", app.clientId()).statusCode(400).body("error", equalTo("invalid_dpop_proof"));

        // A public client's refresh token is bound too: without the key it is worth nothing.
        String refresh = (String) tokens.get("refresh_token");
        postWithProof(null, app, "grant_type", "refresh_token", "refresh_token", refresh, "client_id", app.clientId())
                .statusCode(400).body("error", equalTo("invalid_dpop_proof"));
        postWithProof(proof(dpopKey()), app, "grant_type", "refresh_token", "refresh_token", refresh, "client_id",
                app.clientId()).statusCode(400).body("error", equalTo("invalid_dpop_proof"));
        Map<String, Object> refreshed = postWithProof(proof(key), app, "grant_type", "refresh_token", "refresh_token", refresh,
                "client_id", app.clientId()).statusCode(200).body("token_type", equalTo("DPoP"))
                .extract().jsonPath().getMap("$");
        introspect((String) refreshed.get("access_token")).body("cnf.jkt", equalTo(jkt));
        long rows = pool.preparedQuery("SELECT count(*) AS n FROM dpop_proof_used").execute().await().indefinitely()
                .iterator().next().getLong("n");
        assertTrue(rows >= 2, "the proofs seen are kept for every replica: " + rows);
    }

    /** userinfo is a protected resource too (RFC 9449 §7): a DPoP-bound token works there with its proof only. */
    @Test
    void userinfoTakesADpopTokenWithAFreshProofOfItsKey() throws Exception {
        App app = app(false, "openid profile", Map.of());
        DefaultDPoPProofFactory key = dpopKey();
        String token = postWithProof(proof(key), app, "grant_type", "password", "username", "alice", "password",
                "alice password 1", "client_id", app.clientId(), "scope", "openid profile")
                .statusCode(200).body("token_type", equalTo("DPoP")).extract().path("access_token");
        URI userinfo = URI.create(ISSUER + "/oauth/userinfo");
        String first = key.createDPoPJWT("GET", userinfo, new com.nimbusds.oauth2.sdk.token.DPoPAccessToken(token)).serialize();
        given().header("Authorization", "DPoP " + token).header("DPoP", first).get("/oauth/userinfo").then().statusCode(200)
                .body("sub", equalTo("101")).body("preferred_username", equalTo("alice"));
        given().header("Authorization", "DPoP " + token).header("DPoP", first).get("/oauth/userinfo").then().statusCode(401)
                .header("WWW-Authenticate", containsString("DPoP")).body("error", equalTo("invalid_dpop_proof"));
        given().header("Authorization", "DPoP " + token).get("/oauth/userinfo").then().statusCode(401);
        given().header("Authorization", "Bearer " + token).get("/oauth/userinfo").then().statusCode(401);
        given().header("Authorization", "DPoP " + token).header("DPoP", dpopKey().createDPoPJWT("GET", userinfo,
                new com.nimbusds.oauth2.sdk.token.DPoPAccessToken(token)).serialize()).get("/oauth/userinfo").then()
                .statusCode(401);
        given().header("Authorization", "DPoP " + token).header("DPoP", key.createDPoPJWT("GET", userinfo,
                new com.nimbusds.oauth2.sdk.token.DPoPAccessToken(token)).serialize()).post("/oauth/userinfo").then()
                .statusCode(401);
        given().header("Authorization", "DPoP " + token).header("DPoP", key.createDPoPJWT("POST", userinfo,
                new com.nimbusds.oauth2.sdk.token.DPoPAccessToken(token)).serialize()).post("/oauth/userinfo").then()
                .statusCode(200).body("sub", equalTo("101"));
        // A bearer token sent as DPoP is not one.
        String bearer = (String) alice(app(true, "openid", Map.of()), "scope", "openid").get("access_token");
        given().header("Authorization", "DPoP " + bearer).header("DPoP", key.createDPoPJWT("GET", userinfo,
                new com.nimbusds.oauth2.sdk.token.DPoPAccessToken(bearer)).serialize()).get("/oauth/userinfo").then()
                .statusCode(401);
    }

    @Test
    void anApplicationMayRequireDpopAndNoncesAreTakenByAnyReplica() throws Exception {
        App app = app(true, "user", Map.of("dpop_bound_access_tokens", true, "access_token_format", "jwt"));
        post("/oauth/token", app, "grant_type", "client_credentials").statusCode(400)
                .body("error", equalTo("invalid_dpop_proof"));
        DefaultDPoPProofFactory key = dpopKey();
        // A nonce this server did not make: the answer gives one to use.
        String nonce = postWithProof(key.createDPoPJWT("POST", URI.create(TOKEN_ENDPOINT), new Nonce("made-up")).serialize(),
                app, "grant_type", "client_credentials").statusCode(400).body("error", equalTo("use_dpop_nonce"))
                .extract().header("DPoP-Nonce");
        assertNotNull(nonce);
        String access = postWithProof(key.createDPoPJWT("POST", URI.create(TOKEN_ENDPOINT), new Nonce(nonce)).serialize(),
                app, "grant_type", "client_credentials").statusCode(200).body("token_type", equalTo("DPoP"))
                .extract().path("access_token");
        JWTClaimsSet claims = verifiedAccessToken(access);
        assertEquals(Map.of("jkt", key.getPublicJWK().computeThumbprint().toString()), claims.getJSONObjectClaim("cnf"));
        assertEquals(app.clientId(), claims.getSubject(), "the client acting for itself");
    }

    @Test
    void aServiceExchangesAPersonsTokenForANarrowerOneForAnotherResource() throws Exception {
        App storageService = app(true, "user write", Map.of("token_exchange", true, "access_token_format", "jwt"));
        // The storage service's own client, as the configuration names it.
        pool.preparedQuery("UPDATE application SET client_id = 'storage-service' WHERE id = $1")
                .execute(Tuple.of(storageService.id())).await().indefinitely();
        App service = new App(storageService.id(), "storage-service", storageService.secret());
        App notebook = app(true, "user write", Map.of());
        // The person's authorization names both resources: the service's own, and the one it calls on their behalf.
        Map<String, Object> person = alice(notebook, "scope", "user write", "resource", STORAGE, "resource", COMPUTE);
        String subject = (String) person.get("access_token");
        // An authorization that names the storage alone gives no token for the compute service by exchange (RFC 8707).
        String storageOnly = (String) alice(notebook, "scope", "user write", "resource", STORAGE).get("access_token");
        postWithProof(null, service, "grant_type", EXCHANGE, "subject_token", storageOnly, "subject_token_type",
                ACCESS_TOKEN_TYPE, "resource", COMPUTE, "scope", "user").statusCode(400).body("error", equalTo("invalid_target"));

        Map<String, Object> exchanged = postWithProof(null, service, "grant_type", EXCHANGE, "subject_token", subject,
                "subject_token_type", ACCESS_TOKEN_TYPE, "resource", COMPUTE, "scope", "user")
                .statusCode(200).body("issued_token_type", equalTo("urn:ietf:params:oauth:token-type:jwt"))
                .body("token_type", equalTo("bearer")).body("refresh_token", nullValue())
                .extract().jsonPath().getMap("$");
        JWTClaimsSet claims = verifiedAccessToken((String) exchanged.get("access_token"));
        assertEquals("101", claims.getSubject());
        assertEquals(List.of(COMPUTE), claims.getAudience());
        assertEquals("user", claims.getStringClaim("scope"));
        assertEquals(Map.of("sub", "storage-service"), claims.getJSONObjectClaim("act"));
        long subjectExp = ((Number) introspect(subject).extract().path("exp")).longValue();
        introspect((String) exchanged.get("access_token")).body("act.sub", equalTo("storage-service"))
                .body("exp", lessThanOrEqualTo((int) subjectExp));

        // Never wider.
        postWithProof(null, service, "grant_type", EXCHANGE, "subject_token", subject, "subject_token_type", ACCESS_TOKEN_TYPE,
                "resource", COMPUTE, "scope", "user account").statusCode(400).body("error", equalTo("invalid_scope"));
        // Only for a token meant for the service, by an application that may exchange.
        App other = app(true, "user write", Map.of("token_exchange", true));
        postWithProof(null, other, "grant_type", EXCHANGE, "subject_token", subject, "subject_token_type", ACCESS_TOKEN_TYPE,
                "resource", COMPUTE).statusCode(400).body("error", equalTo("invalid_grant"));
        postWithProof(null, notebook, "grant_type", EXCHANGE, "subject_token", subject, "subject_token_type",
                ACCESS_TOKEN_TYPE, "resource", COMPUTE).statusCode(400).body("error", equalTo("unauthorized_client"));
        postWithProof(null, service, "grant_type", EXCHANGE, "subject_token", "zat_nothing", "subject_token_type",
                ACCESS_TOKEN_TYPE).statusCode(400).body("error", equalTo("invalid_grant"));
        postWithProof(null, service, "grant_type", EXCHANGE, "subject_token", subject, "subject_token_type",
                "urn:ietf:params:oauth:token-type:refresh_token").statusCode(400).body("error", equalTo("invalid_request"));

        // The exchanged token belongs to the person's authorization: revoking that ends it too.
        post("/oauth/revoke", notebook, "token", (String) person.get("refresh_token")).statusCode(200);
        introspect((String) exchanged.get("access_token")).body("active", equalTo(false));
    }

    /**
     * A DPoP-bound subject token is exchanged only with a proof of its key, and what comes back is
     * bound to it (RFC 9449 §7.1, RFC 8693 §2.1): once, a public client's id alone turned it into a
     * bearer token, and another key's proof re-bound it.
     */
    @Test
    void anExchangeKeepsTheSubjectTokensKey() throws Exception {
        App app = app(false, "user write", Map.of("token_exchange", true));
        DefaultDPoPProofFactory key = dpopKey();
        String jkt = key.getPublicJWK().computeThumbprint().toString();
        String subject = postWithProof(proof(key), app, "grant_type", "password", "username", "alice", "password",
                "alice password 1", "client_id", app.clientId(), "scope", "user")
                .statusCode(200).body("token_type", equalTo("DPoP")).extract().path("access_token");
        postWithProof(null, app, "grant_type", EXCHANGE, "subject_token", subject, "subject_token_type", ACCESS_TOKEN_TYPE,
                "client_id", app.clientId()).statusCode(400).body("error", equalTo("invalid_grant"));
        postWithProof(proof(dpopKey()), app, "grant_type", EXCHANGE, "subject_token", subject, "subject_token_type",
                ACCESS_TOKEN_TYPE, "client_id", app.clientId()).statusCode(400).body("error", equalTo("invalid_grant"));
        String exchanged = postWithProof(proof(key), app, "grant_type", EXCHANGE, "subject_token", subject,
                "subject_token_type", ACCESS_TOKEN_TYPE, "client_id", app.clientId())
                .statusCode(200).body("token_type", equalTo("DPoP")).extract().path("access_token");
        introspect(exchanged).body("active", equalTo(true)).body("token_type", equalTo("DPoP")).body("cnf.jkt", equalTo(jkt));
    }

    /**
     * An exchanged token ends with the subject token's sign-in and authorization: once it had none,
     * and outlived the person's signing out, with an authorization_exp 90 days away.
     */
    @Test
    void anExchangedTokenEndsWithTheSubjectsSignIn() {
        App app = app(true, "openid user write", Map.of("token_exchange", true));
        AuthorizeFlowTest.Browser browser = new AuthorizeFlowTest.Browser();
        Map<String, String> code = AuthorizeFlowTest.approve(browser, app, "openid user", "s-exchange", null);
        Map<String, Object> tokens = postWithProof(null, app, "grant_type", "authorization_code", "code", code.get("code"),
                "redirect_uri", AuthorizeFlowTest.CALLBACK).statusCode(200).extract().jsonPath().getMap("$");
        String subject = (String) tokens.get("access_token");
        long subjectAuthorizationEnds = ((Number) introspect(subject).extract().path("authorization_exp")).longValue();
        String exchanged = postWithProof(null, app, "grant_type", EXCHANGE, "subject_token", subject, "subject_token_type",
                ACCESS_TOKEN_TYPE, "scope", "user").statusCode(200).extract().path("access_token");
        introspect(exchanged).body("active", equalTo(true))
                .body("authorization_exp", lessThanOrEqualTo((int) subjectAuthorizationEnds));
        sessions.end(browser.cookies.get(org.ziggurat.auth.authorization.LoginSessions.COOKIE))
                .await().atMost(java.time.Duration.ofSeconds(10));
        introspect(subject).body("active", equalTo(false));
        introspect(exchanged).body("active", equalTo(false));
        // Nothing more is made from a signed-out session's token.
        postWithProof(null, app, "grant_type", EXCHANGE, "subject_token", subject, "subject_token_type", ACCESS_TOKEN_TYPE)
                .statusCode(400).body("error", equalTo("invalid_grant"));
    }

    @Test
    void introspectionAnswersSignedForThoseWhoAsk() throws Exception {
        App app = app(true, "user", Map.of());
        String token = (String) alice(app, "scope", "user").get("access_token");
        String jwt = given().auth().preemptive().basic(OAuthTestSupport.GATEWAY_ID, OAuthTestSupport.GATEWAY_SECRET)
                .contentType("application/x-www-form-urlencoded").accept("application/token-introspection+jwt")
                .body("token=" + token).post("/oauth/introspect").then().statusCode(200)
                .contentType(containsString("application/token-introspection+jwt")).header("Cache-Control", "no-store")
                .extract().asString();
        DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
        processor.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(new JOSEObjectType("token-introspection+jwt")));
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.RS256, new ImmutableJWKSet<>(jwks())));
        JWTClaimsSet claims = processor.process(jwt, null);
        assertEquals(ISSUER, claims.getIssuer());
        assertEquals(List.of(OAuthTestSupport.GATEWAY_ID), claims.getAudience());
        Map<String, Object> answer = claims.getJSONObjectClaim("token_introspection");
        assertEquals(true, answer.get("active"));
        assertEquals("101", answer.get("sub"));
    }

    /**
     * The gateway checks each API call's proof itself and asks here whether any replica saw it:
     * once, on any replica, and only the gateway may ask.
     */
    @Test
    void theGatewayRecordsTheProofsOfApiCallsOnce() throws Exception {
        String jkt = dpopKey().getPublicJWK().computeThumbprint().toString();
        Map<String, Object> proof = Map.of("jkt", jkt, "jti", java.util.UUID.randomUUID().toString(),
                "iat", java.time.Instant.now().getEpochSecond());
        String gateway = org.ziggurat.platform.testing.TestTokens.service("gateway");
        given().header("X-Platform-Token", gateway).contentType("application/json").body(proof)
                .post("/internal/dpop-proofs").then().statusCode(201);
        given().header("X-Platform-Token", gateway).contentType("application/json").body(proof)
                .post("/internal/dpop-proofs").then().statusCode(409);
        given().header("X-Platform-Token", org.ziggurat.platform.testing.TestTokens.service("directory-service"))
                .contentType("application/json").body(Map.of("jkt", jkt, "jti", "other", "iat",
                        java.time.Instant.now().getEpochSecond())).post("/internal/dpop-proofs").then().statusCode(403);
        given().contentType("application/json").body(proof).post("/internal/dpop-proofs").then().statusCode(401);
        given().header("X-Platform-Token", gateway).contentType("application/json").body(Map.of("jkt", jkt, "jti", "old",
                "iat", java.time.Instant.now().getEpochSecond() - 3600)).post("/internal/dpop-proofs").then()
                .statusCode(422).body("errors[0].field", equalTo("iat"));
        given().header("X-Platform-Token", gateway).contentType("application/json").body(Map.of("jkt", "short", "jti", "x",
                "iat", java.time.Instant.now().getEpochSecond())).post("/internal/dpop-proofs").then()
                .statusCode(422).body("errors[0].field", equalTo("jkt"));
        given().header("X-Platform-Token", gateway).contentType("application/json").body("[]")
                .post("/internal/dpop-proofs").then().statusCode(400);
    }

    @Test
    void theMetadataAnnouncesIt() {
        given().get("/.well-known/openid-configuration").then().statusCode(200)
                .body("grant_types_supported", hasItem(EXCHANGE))
                .body("dpop_signing_alg_values_supported", hasItem("ES256"))
                .body("introspection_signing_alg_values_supported", hasItem("RS256"));
        // Registration: a client may ask for DPoP-bound tokens and exchange.
        given().contentType("application/json").header("Authorization", "Bearer test-initial-access-token-0123456789abcdef")
                .body(Map.of("client_name", "Exchanger", "grant_types", List.of(EXCHANGE), "dpop_bound_access_tokens", true,
                        "token_endpoint_auth_method", "client_secret_basic"))
                .post("/oauth/register").then().statusCode(201).body("dpop_bound_access_tokens", equalTo(true))
                .body("grant_types", hasItem(EXCHANGE)).body("client_secret", notNullValue());
    }
}
