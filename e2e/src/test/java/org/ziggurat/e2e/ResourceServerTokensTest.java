package org.ziggurat.e2e;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import com.nimbusds.oauth2.sdk.AccessTokenResponse;
import com.nimbusds.oauth2.sdk.RefreshTokenGrant;
import com.nimbusds.oauth2.sdk.ResourceOwnerPasswordCredentialsGrant;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.dpop.DefaultDPoPProofFactory;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.http.HTTPResponse;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.token.DPoPAccessToken;
import com.nimbusds.oauth2.sdk.token.DPoPTokenError;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.jwt.SignedJWT;
import io.restassured.RestAssured;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.e2e.Platform.as;

/**
 * Tokens that resource servers check themselves, with clients nobody here wrote: quarkus-oidc as a
 * storage system's resource server checking JWT access tokens (RFC 9068) against the JWKS alone;
 * the Nimbus SDK's DPoP proofs (RFC 9449) through the gateway, both replicas, with each gateway's
 * nonce (§9) as a client follows it (a first call refused with use_dpop_nonce); a service
 * exchanging a person's token for a narrower one (RFC 8693); a JWT access token's token status list
 * (draft-ietf-oauth-status-list), revoked through one replica and so on both. The resource servers
 * are the stack's configuration ({@link Stack}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ResourceServerTokensTest {

    static final String STORAGE = "https://storage.example.org";
    static final String COMPUTE = "https://compute.example.org";
    /** The storage system's own client, as the operator named it for token exchange. */
    static final String STORAGE_SERVICE = "e2e-storage-service";

    Process storage;
    String storageBase;

    @BeforeAll
    void startTheStorageSystem() throws Exception {
        Platform.Person developer = Platform.signUp("storage-developer");
        int port = Stack.freePort();
        storageBase = "http://127.0.0.1:" + port;
        // Its web-app half (the default tenant) needs a client of its own; the resource server none.
        Map<String, Object> app = as(Platform.accessToken(developer, "admin")).contentType("application/json")
                .body(Map.of("name", "Storage", "redirect_uris", List.of(storageBase + "/notebook"), "scopes", "openid"))
                .post("/applications").then().statusCode(201).extract().jsonPath().getMap("");
        RelyingPartyApp started = RelyingPartyApp.start("storage-resource-server", port, (String) app.get("client_id"),
                (String) app.get("client_secret"), Map.of("ZIGGURAT_STORAGE_RESOURCE", STORAGE));
        storage = started.process();
    }

    @AfterAll
    void stopTheStorageSystem() throws InterruptedException {
        if (storage != null) {
            storage.destroy();
            storage.waitFor();
        }
    }

    record App(String clientId, String secret) {
    }

    /** An application of {@code owner}'s, with these settings over a confidential password-grant client's. */
    static App app(Platform.Person owner, Map<String, Object> settings) {
        Map<String, Object> body = new HashMap<>(Map.of("name", Platform.uniqueName("resource-client"),
                "redirect_uris", List.of("https://tool.example.org/callback"), "scopes", "user write",
                "password_grant", true));
        body.putAll(settings);
        Map<String, Object> created = as(Platform.accessToken(owner, "admin")).contentType("application/json").body(body)
                .post("/applications").then().statusCode(201).extract().jsonPath().getMap("");
        return new App((String) created.get("client_id"), (String) created.get("client_secret"));
    }

    /** The password grant through the gateway, as the client, for these resources (none: the platform's). */
    static Map<String, Object> password(App app, Platform.Person who, String scope, String... resources) {
        var request = Platform.offContract().auth().preemptive().basic(app.clientId(), app.secret())
                .contentType("application/x-www-form-urlencoded").formParam("grant_type", "password")
                .formParam("username", who.username()).formParam("password", who.password()).formParam("scope", scope);
        if (resources.length > 0) {
            request = request.formParam("resource", (Object[]) resources);
        }
        return request.post("/oauth/token").then().statusCode(200).extract().jsonPath().getMap("");
    }

    int atStorage(String token) {
        return RestAssured.given().baseUri(storageBase).header("Authorization", "Bearer " + token).get("/storage/whoami")
                .statusCode();
    }

    @Test
    void quarkusOidcChecksTheJwtAccessTokensMeantForItItself() {
        Platform.Person ada = Platform.signUp("storage-user");
        App client = app(ada, Map.of("access_token_format", "jwt"));
        String forStorage = (String) password(client, ada, "user write", STORAGE).get("access_token");
        RestAssured.given().baseUri(storageBase).header("Authorization", "Bearer " + forStorage).get("/storage/whoami")
                .then().statusCode(200).body("sub", equalTo(Long.toString(ada.id()))).body("aud", hasItem(STORAGE))
                .body("scope", equalTo("user write")).body("client_id", equalTo(client.clientId()))
                .body("iss", equalTo(Platform.api()));
        // A token for another resource, or for the platform's API, is not the storage system's.
        assertEquals(401, atStorage((String) password(client, ada, "user", COMPUTE).get("access_token")));
        String forPlatform = (String) password(client, ada, "user").get("access_token");
        assertEquals(401, atStorage(forPlatform));
        as(forPlatform).get("/user").then().statusCode(200).body("username", equalTo(ada.username()));
        // Nor is the storage system's token the platform's: the gateway refuses it (RFC 8707).
        Platform.offContract().header("Authorization", "Bearer " + forStorage).get("/user").then().statusCode(401);
        // An opaque token says nothing to a resource server that only verifies signatures.
        App opaque = app(ada, Map.of());
        assertEquals(401, atStorage((String) password(opaque, ada, "user", STORAGE).get("access_token")));
        // Storage tokens live 20 s here: once expired, refused.
        await().atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofSeconds(2)).until(() -> atStorage(forStorage) == 401);
    }

    /** A proof of the key for a call, as the Nimbus SDK makes it, with the gateway's nonce when given. */
    static String proof(DefaultDPoPProofFactory key, String method, String url, String token, Nonce nonce) throws Exception {
        return (token == null ? key.createDPoPJWT(method, URI.create(url), nonce)
                : key.createDPoPJWT(method, URI.create(url), new DPoPAccessToken(token), nonce)).serialize();
    }

    static HTTPResponse send(String base, String token, String proof) throws Exception {
        HTTPRequest request = new HTTPRequest(HTTPRequest.Method.GET, URI.create(base + "/api/user"));
        request.setAuthorization("DPoP " + token);
        if (proof != null) {
            request.setHeader("DPoP", proof);
        }
        return request.send();
    }

    static int call(String base, String token, String proof) throws Exception {
        return send(base, token, proof).getStatusCode();
    }

    /**
     * A gateway's nonce, as a client learns it (RFC 9449 §9): its call without one refused with
     * use_dpop_nonce, the nonce in DPoP-Nonce.
     */
    static Nonce nonceOf(String base, DefaultDPoPProofFactory key, String url, String token) throws Exception {
        HTTPResponse refused = send(base, token, proof(key, "GET", url, token, null));
        assertEquals(401, refused.getStatusCode());
        assertEquals(DPoPTokenError.USE_DPOP_NONCE.getCode(),
                DPoPTokenError.parse(refused.getHeaderValue("WWW-Authenticate")).getCode());
        assertNotNull(refused.getDPoPNonce(), "the challenge gives a nonce");
        return refused.getDPoPNonce();
    }

    @Test
    void aDpopBoundTokenWorksThroughTheGatewayOnlyWithAFreshProof() throws Exception {
        Platform.Person bo = Platform.signUp("dpop-user");
        App publicClient = app(bo, Map.of("confidential", false, "dpop_bound_access_tokens", true, "scopes", "user"));
        DefaultDPoPProofFactory key = new DefaultDPoPProofFactory(new ECKeyGenerator(Curve.P_256).generate(), JWSAlgorithm.ES256);
        URI tokenEndpoint = Platform.metadata().getTokenEndpointURI();
        assertTrue(Platform.metadata().getDPoPJWSAlgs().contains(JWSAlgorithm.ES256), "the metadata announces DPoP");

        TokenRequest request = new TokenRequest(tokenEndpoint, new ClientID(publicClient.clientId()),
                new ResourceOwnerPasswordCredentialsGrant(bo.username(), new Secret(bo.password())), new Scope("user"));
        // The application requires DPoP: without a proof, nothing.
        assertEquals("invalid_dpop_proof", TokenResponse.parse(request.toHTTPRequest().send()).toErrorResponse()
                .getErrorObject().getCode());
        HTTPRequest withProof = request.toHTTPRequest();
        withProof.setDPoP(key.createDPoPJWT("POST", tokenEndpoint));
        AccessTokenResponse tokens = TokenResponse.parse(withProof.send()).toSuccessResponse();
        DPoPAccessToken access = tokens.getTokens().getDPoPAccessToken();
        assertNotNull(access, "a DPoP token");
        String token = access.getValue();

        String url = Platform.api() + "/user";
        String gatewayOne = Stack.get().instanceUrl("gateway");
        String gatewayTwo = Stack.get().instanceUrl("gateway-2");
        // Each gateway gives its own nonce; a proof needs one.
        Nonce one = nonceOf(gatewayOne, key, url, token);
        Nonce two = nonceOf(gatewayTwo, key, url, token);
        String first = proof(key, "GET", url, token, one);
        assertEquals(200, call(gatewayOne, token, first));
        // The same proof at the other replica: a replay, refused there too (it asks the nonce's issuer).
        assertEquals(401, call(gatewayTwo, token, first));
        assertEquals(401, call(gatewayOne, token, first));
        // A proof with the second gateway's nonce, used first at the first gateway: refused at either after.
        String second = proof(key, "GET", url, token, two);
        assertEquals(200, call(gatewayOne, token, second));
        assertEquals(401, call(gatewayTwo, token, second));
        assertEquals(401, call(gatewayOne, token, second));
        assertEquals(401, call(gatewayOne, token, null), "without its proof");
        Platform.offContract().header("Authorization", "Bearer " + token).get("/user").then().statusCode(401);
        assertEquals(401, call(gatewayOne, token, proof(new DefaultDPoPProofFactory(new ECKeyGenerator(Curve.P_256).generate(),
                JWSAlgorithm.ES256), "GET", url, token, one)), "another key's proof");
        assertEquals(200, call(gatewayTwo, token, proof(key, "GET", url, token, one)));
        // Through the balancer, as a client keeps the nonce the last answer gave.
        HTTPRequest user = new HTTPRequest(HTTPRequest.Method.GET, URI.create(url));
        user.setAuthorization(access.toAuthorizationHeader());
        user.setDPoP(key.createDPoPJWT("GET", URI.create(url), access, two));
        HTTPResponse answer = user.send();
        assertEquals(200, answer.getStatusCode(), answer.getBody());
        assertEquals(bo.username(), answer.getBodyAsJSONObject().get("username"));
        assertNotNull(answer.getDPoPNonce(), "a nonce for the next proof");

        // The refresh token of a public client is bound too: another key cannot use it.
        TokenRequest refresh = new TokenRequest(tokenEndpoint, new ClientID(publicClient.clientId()),
                new RefreshTokenGrant(tokens.getTokens().getRefreshToken()));
        HTTPRequest stolen = refresh.toHTTPRequest();
        stolen.setDPoP(new DefaultDPoPProofFactory(new ECKeyGenerator(Curve.P_256).generate(), JWSAlgorithm.ES256)
                .createDPoPJWT("POST", tokenEndpoint));
        assertEquals("invalid_dpop_proof", TokenResponse.parse(stolen.send()).toErrorResponse().getErrorObject().getCode());
        HTTPRequest owned = refresh.toHTTPRequest();
        owned.setDPoP(key.createDPoPJWT("POST", tokenEndpoint));
        assertNotNull(TokenResponse.parse(owned.send()).toSuccessResponse().getTokens().getDPoPAccessToken());
    }

    @Test
    void aServiceExchangesAPersonsTokenForANarrowerOneForAnotherResource() throws Exception {
        Platform.Person cy = Platform.signUp("exchange-user");
        App notebook = app(cy, Map.of());
        // The person's authorization names both: the storage, and the platform's API the storage calls on their
        // behalf (an exchange is for no resource the authorization did not name, RFC 8707).
        Map<String, Object> person = password(notebook, cy, "user write", STORAGE, Platform.api());
        // The storage system's service, as the operator named its client.
        App service = app(cy, Map.of("token_exchange", true, "access_token_format", "jwt"));
        assertEquals(1, Stack.get().sql("UPDATE auth.application SET client_id = ? WHERE client_id = ?", STORAGE_SERVICE,
                service.clientId()));
        App storageService = new App(STORAGE_SERVICE, service.secret());

        Map<String, Object> exchanged = Platform.offContract().auth().preemptive().basic(STORAGE_SERVICE, service.secret())
                .contentType("application/x-www-form-urlencoded")
                .formParam("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange")
                .formParam("subject_token", (String) person.get("access_token"))
                .formParam("subject_token_type", "urn:ietf:params:oauth:token-type:access_token")
                .formParam("resource", Platform.api()).formParam("scope", "user")
                .post("/oauth/token").then().statusCode(200)
                .body("issued_token_type", equalTo("urn:ietf:params:oauth:token-type:jwt")).extract().jsonPath().getMap("");
        String onBehalf = (String) exchanged.get("access_token");
        assertNull(exchanged.get("refresh_token"));
        // A standard resource server's check: the JWKS, at+jwt; then what the token says.
        DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
        processor.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(new com.nimbusds.jose.JOSEObjectType("at+jwt")));
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.ES256,
                JWKSourceBuilder.create(Platform.metadata().getJWKSetURI().toURL()).build()));
        JWTClaimsSet claims = processor.process(onBehalf, null);
        assertEquals(Long.toString(cy.id()), claims.getSubject());
        assertEquals(List.of(Platform.api()), claims.getAudience());
        assertEquals(Map.of("sub", STORAGE_SERVICE), claims.getJSONObjectClaim("act"));
        assertEquals("user", claims.getStringClaim("scope"), "narrower: the person's token had user write");
        // The platform's API takes it, on the person's behalf.
        as(onBehalf).get("/user").then().statusCode(200).body("username", equalTo(cy.username()));

        // Wider than the token it holds: refused.
        Platform.offContract().auth().preemptive().basic(storageService.clientId(), storageService.secret())
                .contentType("application/x-www-form-urlencoded")
                .formParam("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange")
                .formParam("subject_token", (String) person.get("access_token"))
                .formParam("subject_token_type", "urn:ietf:params:oauth:token-type:access_token")
                .formParam("resource", Platform.api()).formParam("scope", "user write admin")
                .post("/oauth/token").then().statusCode(400).body("error", equalTo("invalid_scope"));
        // Another application, not the storage system's, may not exchange the storage token.
        App other = app(cy, Map.of("token_exchange", true));
        Platform.offContract().auth().preemptive().basic(other.clientId(), other.secret())
                .contentType("application/x-www-form-urlencoded")
                .formParam("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange")
                .formParam("subject_token", (String) person.get("access_token"))
                .formParam("subject_token_type", "urn:ietf:params:oauth:token-type:access_token")
                .post("/oauth/token").then().statusCode(400).body("error", equalTo("invalid_grant"));
        // The person ends the notebook's authorization: what the service got on its behalf ends too.
        Platform.offContract().auth().preemptive().basic(notebook.clientId(), notebook.secret())
                .contentType("application/x-www-form-urlencoded").formParam("token", (String) person.get("refresh_token"))
                .post("/oauth/revoke").then().statusCode(200);
        await().atMost(Duration.ofSeconds(15)).until(() -> Platform.offContract()
                .header("Authorization", "Bearer " + onBehalf).get("/user").statusCode() == 401);
        assertTrue(SignedJWT.parse(onBehalf).getJWTClaimsSet().getExpirationTime().getTime() > System.currentTimeMillis(),
                "revoked, not expired: the gateway asked");
    }

    /** A token status list fetched as a resource server does (through the gateway or one replica), checked against the JWKS: its bytes. */
    static byte[] statusList(String base, String path, String uri) throws Exception {
        var answer = RestAssured.given().baseUri(base).header("Origin", "https://rs.example.org")
                .accept("application/statuslist+jwt").get(path);
        answer.then().statusCode(200).contentType("application/statuslist+jwt");
        DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
        processor.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(new com.nimbusds.jose.JOSEObjectType("statuslist+jwt")));
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.ES256,
                JWKSourceBuilder.create(Platform.metadata().getJWKSetURI().toURL()).build()));
        JWTClaimsSet list = processor.process(answer.asString(), null);
        assertEquals(uri, list.getSubject());
        // Caches keep it as long as its ttl says (2 s in this stack, Stack; a minute by default).
        assertEquals(2L, list.getLongClaim("ttl"));
        assertEquals("public, max-age=2", answer.header("Cache-Control"));
        java.util.zip.Inflater inflater = new java.util.zip.Inflater();
        inflater.setInput(java.util.Base64.getUrlDecoder().decode((String) list.getJSONObjectClaim("status_list").get("lst")));
        byte[] bytes = new byte[1 << 17];
        int read = 0;
        while (!inflater.finished() && read < bytes.length) {
            read += inflater.inflate(bytes, read, bytes.length - read);
        }
        inflater.end();
        assertEquals(1 << 17, read, "2^20 entries");
        return bytes;
    }

    static int bit(byte[] list, int idx) {
        return (list[idx >> 3] >> (idx & 7)) & 1;
    }

    /**
     * A JWT access token names its bit in a token status list (draft-ietf-oauth-status-list),
     * public through the gateway (CORS too) and signed with a key of the JWKS. Revoked through one
     * replica, it is 1 in both replicas' lists, each asked directly.
     */
    @Test
    void theStatusListTellsBothReplicasListsOfARevocation() throws Exception {
        Platform.Person eve = Platform.signUp("status-user");
        App client = app(eve, Map.of("access_token_format", "jwt"));
        String access = (String) password(client, eve, "user").get("access_token");
        @SuppressWarnings("unchecked")
        Map<String, Object> entry = (Map<String, Object>) SignedJWT.parse(access).getJWTClaimsSet()
                .getJSONObjectClaim("status").get("status_list");
        String uri = (String) entry.get("uri");
        int idx = ((Number) entry.get("idx")).intValue();
        assertTrue(uri.startsWith(Platform.api() + "/oauth/status-lists/"), uri);
        String path = uri.substring(Platform.api().length());
        assertEquals(Platform.api() + "/oauth/status-lists",
                Platform.metadata().getCustomParameter("status_list_aggregation_endpoint"));
        assertEquals(0, bit(statusList(Platform.api(), path, uri), idx));
        RestAssured.given().baseUri(Platform.api()).header("Origin", "https://rs.example.org").get(path).then()
                .header("Access-Control-Allow-Origin", org.hamcrest.Matchers.notNullValue());

        Platform.offContract().auth().preemptive().basic(client.clientId(), client.secret())
                .contentType("application/x-www-form-urlencoded").formParam("token", access)
                .post("/oauth/revoke").then().statusCode(200);
        for (String instance : List.of("auth-service", "auth-service-2")) {
            String base = Stack.get().instanceUrl(instance);
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> bit(statusList(base, path, uri), idx) == 1);
        }
    }
}
