package org.ziggurat.auth.tokens;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport.App;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.OAuthTestSupport.asPerson;
import static org.ziggurat.auth.OAuthTestSupport.introspect;
import static org.ziggurat.auth.OAuthTestSupport.post;
import static org.ziggurat.auth.tokens.RegisteredResourceServersTest.body;
import static org.ziggurat.auth.tokens.RegisteredResourceServersTest.operator;
import static org.ziggurat.auth.tokens.RegisteredResourceServersTest.register;
import static org.ziggurat.auth.tokens.RegisteredResourceServersTest.uniqueIdentifier;

/**
 * A registered resource server's credential introspects the tokens whose audience names it and no
 * other (RFC 7662 §4), plain and signed (RFC 9701), and is refused by the token endpoint; a token
 * for a resource has the format the resource wants, whatever its client chose, under every grant.
 */
@QuarkusTest
class ResourceServerTokensTest {

    static final String PLATFORM = "http://localhost:8080/api";
    static final String EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
    static final String ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";
    static final String JWT_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:jwt";

    record Registered(String id, String identifier, App credential) {
    }

    static Registered registered(String format) {
        String identifier = uniqueIdentifier();
        ExtractableResponse<Response> created = register(body(identifier, format));
        return new Registered(created.path("id"), identifier, new App(0, created.path("client_id"), created.path("client_secret")));
    }

    static App app(String format, boolean exchange) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", "Resource server test app");
        body.put("redirect_uris", List.of("https://app.example.org/callback"));
        body.put("scopes", "user write");
        body.put("confidential", true);
        body.put("password_grant", true);
        body.put("access_token_format", format);
        body.put("token_exchange", exchange);
        var created = asPerson(900, "owner", "admin").contentType("application/json").body(body).post("/applications")
                .then().statusCode(201).extract();
        return new App(((Number) created.path("id")).longValue(), created.path("client_id"), created.path("client_secret"));
    }

    static Map<String, Object> alice(App app, String... more) {
        String[] pairs = new String[6 + more.length];
        System.arraycopy(new String[] {"grant_type", "password", "username", "alice", "password", "alice password 1"}, 0,
                pairs, 0, 6);
        System.arraycopy(more, 0, pairs, 6, more.length);
        return post("/oauth/token", app, pairs).statusCode(200).extract().jsonPath().getMap("$");
    }

    static String access(Map<String, Object> tokens) {
        return (String) tokens.get("access_token");
    }

    /** What a resource server that only verifies signatures does: the JWKS, ES256, the type at+jwt. */
    static JWTClaimsSet verified(String token) throws Exception {
        DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
        processor.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(new JOSEObjectType("at+jwt")));
        JWKSet keys = JWKSet.parse(given().get("/oauth/jwks").then().statusCode(200).extract().asString());
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.ES256, new ImmutableJWKSet<>(keys)));
        return processor.process(token, null);
    }

    static boolean opaque(String token) {
        return token.startsWith("zat_") && !token.contains(".");
    }

    static ValidatableResponse introspectAs(App credential, String token) {
        return post("/oauth/introspect", credential, "token", token);
    }

    /** The signed answer's claims (RFC 9701), checked against the JWKS. */
    static JWTClaimsSet signedIntrospection(App credential, String token) throws Exception {
        String jwt = given().auth().preemptive().basic(credential.clientId(), credential.secret())
                .accept("application/token-introspection+jwt").contentType("application/x-www-form-urlencoded")
                .formParam("token", token).post("/oauth/introspect").then().statusCode(200)
                .contentType("application/token-introspection+jwt").extract().asString();
        DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
        processor.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(new JOSEObjectType("token-introspection+jwt")));
        JWKSet keys = JWKSet.parse(given().get("/oauth/jwks").then().statusCode(200).extract().asString());
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.RS256, new ImmutableJWKSet<>(keys)));
        return processor.process(jwt, null);
    }

    @Test
    void itsCredentialIntrospectsTheTokensMeantForItAndNoOthers() throws Exception {
        Registered rs = registered("opaque");
        Registered another = registered("opaque");
        App app = app("opaque", false);
        Map<String, Object> mine = alice(app, "scope", "user write", "resource", rs.identifier());
        String token = access(mine);
        introspectAs(rs.credential(), token).statusCode(200).body("active", equalTo(true))
                .body("aud", equalTo(List.of(rs.identifier()))).body("scope", equalTo("user write")).body("sub", equalTo("101"))
                .body("client_id", equalTo(app.clientId()));
        // client_secret_post as well as basic.
        given().contentType("application/x-www-form-urlencoded").formParam("token", token)
                .formParam("client_id", rs.credential().clientId()).formParam("client_secret", rs.credential().secret())
                .post("/oauth/introspect").then().statusCode(200).body("active", equalTo(true));
        // A token of several audiences, one of them this resource.
        String both = access(alice(app, "scope", "user", "resource", rs.identifier(), "resource", another.identifier()));
        introspectAs(rs.credential(), both).body("active", equalTo(true));
        introspectAs(another.credential(), both).body("active", equalTo(true));

        // Not the others: the platform API's, another resource's, a configured one's, its refresh token.
        for (String other : List.of(access(alice(app, "scope", "user")), access(alice(app, "scope", "user", "resource",
                another.identifier())), access(alice(app, "scope", "user", "resource", "https://storage.example.org")),
                (String) mine.get("refresh_token"), "zat_nothing")) {
            introspectAs(rs.credential(), other).statusCode(200).body("active", equalTo(false))
                    .body("size()", equalTo(1));
        }
        // The gateway still learns about every token.
        introspect(token).body("active", equalTo(true));

        // Signed answers, for its client_id.
        JWTClaimsSet signed = signedIntrospection(rs.credential(), token);
        assertEquals(List.of(rs.credential().clientId()), signed.getAudience());
        assertEquals(PLATFORM, signed.getIssuer());
        assertEquals(true, signed.getJSONObjectClaim("token_introspection").get("active"));
        JWTClaimsSet refused = signedIntrospection(rs.credential(), access(alice(app, "scope", "user")));
        assertEquals(Map.of("active", false), refused.getJSONObjectClaim("token_introspection"));

        // A wrong secret, an assertion instead of one: invalid_client.
        introspectAs(new App(0, rs.credential().clientId(), "zcs_wrong"), token).statusCode(401)
                .body("error", equalTo("invalid_client"));
        given().contentType("application/x-www-form-urlencoded").formParam("token", token)
                .formParam("client_id", rs.credential().clientId()).post("/oauth/introspect").then().statusCode(401);

        // A new credential: the old secret stops at once, the new one works.
        String newSecret = operator().post("/resource-servers/" + rs.id() + "/secret").then().statusCode(200).extract()
                .path("client_secret");
        introspectAs(rs.credential(), token).statusCode(401).body("error", equalTo("invalid_client"));
        App renewed = new App(0, rs.credential().clientId(), newSecret);
        introspectAs(renewed, token).statusCode(200).body("active", equalTo(true));
        // Removed: its credential is nobody's, and the grants for it give no more tokens.
        operator().delete("/resource-servers/" + rs.id()).then().statusCode(204);
        introspectAs(renewed, token).statusCode(401).body("error", equalTo("invalid_client"));
        post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token", (String) mine.get("refresh_token"))
                .statusCode(400).body("error", equalTo("invalid_target"));
        post("/oauth/token", app, "grant_type", "password", "username", "alice", "password", "alice password 1",
                "resource", rs.identifier()).statusCode(400).body("error", equalTo("invalid_target"));
    }

    /**
     * Attacks with a resource server's credential, each finding nothing: the tokens of resources
     * whose identifiers are near its own (a prefix, a longer path, another case, a trailing slash),
     * other clients' tokens at the revocation endpoint, the gateway's revocation feed.
     */
    @Test
    void itsCredentialOpensNoOtherDoor() throws Exception {
        String base = "https://rs-" + java.util.UUID.randomUUID() + ".example.org";
        Map<String, Registered> near = new java.util.LinkedHashMap<>();
        for (String identifier : List.of(base + "/api", base + "/api/", base + "/api/v2", base + "/API",
                base.toUpperCase().replace("HTTPS://", "https://") + "/api", base)) {
            ExtractableResponse<Response> created = RegisteredResourceServersTest.register(body(identifier, "opaque"));
            near.put(identifier, new Registered(created.path("id"), identifier, new App(0, created.path("client_id"),
                    created.path("client_secret"))));
        }
        App app = app("opaque", false);
        for (Registered holder : near.values()) {
            String token = access(alice(app, "scope", "user", "resource", holder.identifier()));
            for (Registered other : near.values()) {
                introspectAs(other.credential(), token).statusCode(200).body("active", equalTo(other == holder));
            }
        }
        Registered rs = near.get(base + "/api");
        // Another client's token, revoked with the resource server's credential: invalid_client, and the token lives on.
        String someone = access(alice(app, "scope", "user", "resource", rs.identifier()));
        post("/oauth/revoke", rs.credential(), "token", someone).statusCode(401).body("error", equalTo("invalid_client"));
        introspectAs(rs.credential(), someone).body("active", equalTo(true));
        // Not the gateway: no revocation feed.
        int feed = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                "http://localhost:" + io.restassured.RestAssured.port + "/internal/revocation-feed"))
                .header("Accept", "text/event-stream").header("Authorization", "Basic " + java.util.Base64.getEncoder()
                        .encodeToString((rs.credential().clientId() + ":" + rs.credential().secret()).getBytes()))
                .build(), java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode();
        assertEquals(401, feed);
    }

    /**
     * Attack: a JWT access token, which anyone can check offline, chosen by its client for the
     * platform's API or wanted by a resource, to outlive its revocation. Introspection (the
     * gateway's, the resource's) and the platform's own endpoints refuse it once revoked.
     */
    @Test
    void aRevokedJwtIsInactiveWhereverItIsIntrospected() throws Exception {
        App jwtClient = app("jwt", false);
        String platformJwt = access(alice(jwtClient, "scope", "user"));
        verified(platformJwt);
        introspect(platformJwt).body("active", equalTo(true)).body("revocation_ref", org.hamcrest.Matchers.notNullValue());
        given().header("Authorization", "Bearer " + platformJwt).get("/oauth/token/info").then().statusCode(200);
        post("/oauth/revoke", jwtClient, "token", platformJwt).statusCode(200);
        introspect(platformJwt).body("active", equalTo(false));
        given().header("Authorization", "Bearer " + platformJwt).get("/oauth/token/info").then().statusCode(401);

        Registered rs = registered("jwt");
        App opaqueClient = app("opaque", false);
        String resourceJwt = access(alice(opaqueClient, "scope", "user", "resource", rs.identifier()));
        verified(resourceJwt);
        introspectAs(rs.credential(), resourceJwt).body("active", equalTo(true));
        post("/oauth/revoke", opaqueClient, "token", resourceJwt).statusCode(200);
        introspectAs(rs.credential(), resourceJwt).body("active", equalTo(false));
        introspect(resourceJwt).body("active", equalTo(false));
    }

    @Test
    void theTokenEndpointRefusesItsCredential() {
        Registered rs = registered("jwt");
        App credential = rs.credential();
        Map<String, Object> tokens = alice(app("opaque", false), "scope", "user", "resource", rs.identifier());
        for (String[] grant : List.of(
                new String[] {"grant_type", "client_credentials"},
                new String[] {"grant_type", "client_credentials", "resource", rs.identifier()},
                new String[] {"grant_type", "password", "username", "alice", "password", "alice password 1"},
                new String[] {"grant_type", "refresh_token", "refresh_token", (String) tokens.get("refresh_token")},
                new String[] {"grant_type", "authorization_code", "code", "zac_nothing", "redirect_uri", "https://x.example.org/cb"},
                new String[] {"grant_type", "urn:ietf:params:oauth:grant-type:device_code", "device_code", "zdc_nothing"},
                new String[] {"grant_type", EXCHANGE, "subject_token", access(tokens), "subject_token_type", ACCESS_TOKEN_TYPE})) {
            post("/oauth/token", credential, grant).statusCode(401).body("error", equalTo("invalid_client"));
        }
        // Named without its secret, as a public client would be: no client either.
        post("/oauth/token", null, "grant_type", "client_credentials", "client_id", credential.clientId()).statusCode(401);
        post("/oauth/device_authorization", credential, "scope", "user").statusCode(401);
        post("/oauth/par", credential, "response_type", "code", "redirect_uri", "https://x.example.org/cb").statusCode(401);
    }

    @Test
    void aResourceThatWantsJwtsGetsThemWhateverTheClientChose() throws Exception {
        Registered rs = registered("jwt");
        App app = app("opaque", false);
        Map<String, Object> tokens = alice(app, "scope", "user write", "resource", rs.identifier());
        JWTClaimsSet claims = verified(access(tokens));
        assertEquals(List.of(rs.identifier()), claims.getAudience());
        assertEquals("user write", claims.getStringClaim("scope"));
        assertEquals(app.clientId(), claims.getStringClaim("client_id"));
        introspectAs(rs.credential(), access(tokens)).body("active", equalTo(true));
        // Its refreshes too (the grant named it), and a refresh that names it.
        Map<String, Object> refreshed = post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token",
                (String) tokens.get("refresh_token")).statusCode(200).extract().jsonPath().getMap("$");
        assertEquals(List.of(rs.identifier()), verified(access(refreshed)).getAudience());
        Map<String, Object> plain = alice(app, "scope", "user");
        assertTrue(opaque(access(plain)), "the platform's API: the application's choice, opaque");
        Map<String, Object> named = post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token",
                (String) plain.get("refresh_token"), "resource", rs.identifier()).statusCode(200).extract().jsonPath().getMap("$");
        assertEquals(List.of(rs.identifier()), verified(access(named)).getAudience());
        Map<String, Object> back = post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token",
                (String) named.get("refresh_token")).statusCode(200).extract().jsonPath().getMap("$");
        assertTrue(opaque(access(back)), "the platform's again: opaque");
        // client_credentials.
        String service = post("/oauth/token", app, "grant_type", "client_credentials", "scope", "user", "resource",
                rs.identifier()).statusCode(200).extract().path("access_token");
        assertEquals(app.clientId(), verified(service).getSubject());
        assertTrue(opaque(post("/oauth/token", app, "grant_type", "client_credentials", "scope", "user").statusCode(200)
                .extract().path("access_token")));
    }

    @Test
    void aResourceThatWantsOpaqueTokensGetsThemWhateverTheClientChose() throws Exception {
        Registered rs = registered("opaque");
        App app = app("jwt", false);
        Map<String, Object> tokens = alice(app, "scope", "user", "resource", rs.identifier());
        assertTrue(opaque(access(tokens)), access(tokens));
        introspectAs(rs.credential(), access(tokens)).body("active", equalTo(true)).body("aud", equalTo(List.of(rs.identifier())));
        Map<String, Object> refreshed = post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token",
                (String) tokens.get("refresh_token")).statusCode(200).extract().jsonPath().getMap("$");
        assertTrue(opaque(access(refreshed)));
        assertTrue(opaque(post("/oauth/token", app, "grant_type", "client_credentials", "scope", "user", "resource",
                rs.identifier()).statusCode(200).extract().path("access_token")));
        // The platform's API keeps the application's choice.
        verified(access(alice(app, "scope", "user")));
        // A resource that wants JWTs beside it wins: an opaque-taking one can introspect a JWT, not the reverse.
        Registered jwt = registered("jwt");
        String both = access(alice(app("opaque", false), "scope", "user", "resource", rs.identifier(), "resource", jwt.identifier()));
        assertEquals(List.of(rs.identifier(), jwt.identifier()), verified(both).getAudience());
        introspectAs(rs.credential(), both).body("active", equalTo(true));
    }

    /** Exchange (RFC 8693): the target resource decides the format, and the exchanging client is the resource's. */
    @Test
    void anExchangeGetsTheFormatOfItsTarget() throws Exception {
        App exchanger = app("opaque", true);
        Registered source = registered("opaque");
        operator().contentType("application/json").body(Map.of("exchange_client_id", exchanger.clientId()))
                .patch("/resource-servers/" + source.id()).then().statusCode(200);
        Registered target = registered("jwt");
        Registered opaqueTarget = registered("opaque");
        // The person's authorization names the three (an exchange is for no other, RFC 8707); the token the
        // service was given is for it alone, narrowed by a refresh.
        App notebook = app("opaque", false);
        Map<String, Object> granted = alice(notebook, "scope", "user", "resource", source.identifier(), "resource",
                target.identifier(), "resource", opaqueTarget.identifier());
        String subject = post("/oauth/token", notebook, "grant_type", "refresh_token", "refresh_token",
                (String) granted.get("refresh_token"), "resource", source.identifier()).statusCode(200).extract()
                .path("access_token");
        assertTrue(opaque(subject), "the source wants opaque tokens");
        Map<String, Object> exchanged = post("/oauth/token", exchanger, "grant_type", EXCHANGE, "subject_token", subject,
                "subject_token_type", ACCESS_TOKEN_TYPE, "resource", target.identifier()).statusCode(200)
                .body("issued_token_type", equalTo(JWT_TOKEN_TYPE)).extract().jsonPath().getMap("$");
        JWTClaimsSet claims = verified(access(exchanged));
        assertEquals(List.of(target.identifier()), claims.getAudience());
        assertEquals(Map.of("sub", exchanger.clientId()), claims.getJSONObjectClaim("act"));
        introspectAs(target.credential(), access(exchanged)).body("active", equalTo(true));
        Map<String, Object> kept = post("/oauth/token", exchanger, "grant_type", EXCHANGE, "subject_token", subject,
                "subject_token_type", ACCESS_TOKEN_TYPE, "resource", opaqueTarget.identifier()).statusCode(200)
                .body("issued_token_type", equalTo(ACCESS_TOKEN_TYPE)).extract().jsonPath().getMap("$");
        assertTrue(opaque(access(kept)));
        post("/oauth/token", exchanger, "grant_type", EXCHANGE, "subject_token", subject, "subject_token_type",
                ACCESS_TOKEN_TYPE, "resource", opaqueTarget.identifier(), "requested_token_type", JWT_TOKEN_TYPE)
                .statusCode(400).body("error", equalTo("invalid_request"));
        // Another application, not the resource's exchanging client, may not.
        post("/oauth/token", app("opaque", true), "grant_type", EXCHANGE, "subject_token", subject, "subject_token_type",
                ACCESS_TOKEN_TYPE, "resource", target.identifier()).statusCode(400).body("error", equalTo("invalid_grant"));
    }
}
