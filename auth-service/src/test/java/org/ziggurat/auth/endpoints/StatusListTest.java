package org.ziggurat.auth.endpoints;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport;
import org.ziggurat.auth.OAuthTestSupport.App;
import org.ziggurat.auth.oauth.StatusListBits;
import org.ziggurat.auth.tokens.StatusIndex;
import org.ziggurat.auth.tokens.StatusIndices;
import org.ziggurat.auth.tokens.StatusListRepository;
import org.ziggurat.platform.testing.ServiceDatabase;
import org.ziggurat.platform.testing.TestTokens;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.OAuthTestSupport.asPerson;
import static org.ziggurat.auth.OAuthTestSupport.post;

/**
 * The Token Status List (draft-ietf-oauth-status-list) of JWT access tokens: each names its own
 * entry; the list is a statuslist+jwt that a resource server checks against the JWKS alone; the
 * entry turns 1 when the token is revoked, by whichever way, also by another replica's statement
 * (SQL here), and stays 1 when the token's row goes before the token expires.
 */
@QuarkusTest
public class StatusListTest {

    static final String ISSUER = "http://localhost:8080/api";
    static final long ALICE = 101;
    /** pia's account is erased here: nobody else may use her. */
    static final long PIA = 115;

    @Inject
    StatusIndices indices;

    @Inject
    StatusListRepository repository;

    static App jwtApp(String scopes) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", "Status list test app");
        body.put("redirect_uris", List.of("https://app.example.org/callback"));
        body.put("scopes", scopes);
        body.put("confidential", true);
        body.put("password_grant", true);
        body.put("access_token_format", "jwt");
        var created = asPerson(OAuthTestSupport.OWNER_ID, "owner", "admin").contentType("application/json").body(body)
                .post("/applications").then().statusCode(201).extract();
        return new App(((Number) created.path("id")).longValue(), created.path("client_id"), created.path("client_secret"));
    }

    static Map<String, Object> tokens(App app, String username, String password) {
        return post("/oauth/token", app, "grant_type", "password", "username", username, "password", password, "scope", "user")
                .statusCode(200).extract().jsonPath().getMap("$");
    }

    static String access(App app, String username, String password) {
        return (String) tokens(app, username, password).get("access_token");
    }

    static JWKSet jwks() throws Exception {
        return JWKSet.parse(given().get("/oauth/jwks").then().statusCode(200).extract().asString());
    }

    /** A JWT of {@code type} as a resource server checks it: the JWKS, ES256 (access-token-alg), the type, exp. */
    static JWTClaimsSet verified(String jwt, String type) throws Exception {
        DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
        processor.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(new JOSEObjectType(type)));
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.ES256, new ImmutableJWKSet<>(jwks())));
        return processor.process(jwt, null);
    }

    /** The access token's status.status_list: its uri and idx. */
    static Map<String, Object> entry(String access) throws Exception {
        Map<String, Object> status = verified(access, "at+jwt").getJSONObjectClaim("status");
        assertNotNull(status, "a JWT access token names its status list entry");
        @SuppressWarnings("unchecked")
        Map<String, Object> entry = (Map<String, Object>) status.get("status_list");
        return entry;
    }

    /** The list at {@code uri}, fetched and checked as a resource server does (§8.3); its byte array. */
    static byte[] list(String uri) throws Exception {
        assertTrue(uri.startsWith(ISSUER + "/oauth/status-lists/"), uri);
        Response response = given().accept(StatusListResource.MEDIA_TYPE).get(uri.substring(ISSUER.length()));
        response.then().statusCode(200).contentType(StatusListResource.MEDIA_TYPE)
                .header("Cache-Control", "public, max-age=60");
        String jwt = response.asString();
        assertNotNull(SignedJWT.parse(jwt).getHeader().getKeyID());
        JWTClaimsSet claims = verified(jwt, "statuslist+jwt");
        assertEquals(uri, claims.getSubject(), "sub is the referenced token's uri");
        assertEquals(ISSUER, claims.getIssuer());
        assertEquals(60L, claims.getLongClaim("ttl"));
        assertNotNull(claims.getIssueTime());
        assertTrue(claims.getExpirationTime().after(claims.getIssueTime()));
        Map<String, Object> statusList = claims.getJSONObjectClaim("status_list");
        assertEquals(1L, ((Number) statusList.get("bits")).longValue());
        assertEquals(ISSUER + "/oauth/status-lists", statusList.get("aggregation_uri"));
        byte[] bytes = StatusListBits.decode((String) statusList.get("lst"), 1 << 17);
        assertEquals(1 << 17, bytes.length, "2^20 entries");
        return bytes;
    }

    /** The token's bit in its list, as a resource server reads it. */
    public static int bit(String access) throws Exception {
        Map<String, Object> entry = entry(access);
        return StatusListBits.status(list((String) entry.get("uri")), ((Number) entry.get("idx")).intValue());
    }

    /** Until the served list says INVALID: within a second, however long the busy machine takes to tell. */
    public static void becomesInvalid(String access) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                .until(() -> bit(access) == StatusListBits.INVALID);
    }

    static long tokenId(String column, Object value) throws Exception {
        try (Connection c = ServiceDatabase.connect(); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM auth.token WHERE " + column + " = " + value)) {
            r.next();
            return r.getLong(1);
        }
    }

    @Test
    void everyJwtAccessTokenNamesAnEntryOfItsOwnThatTheListShowsValid() throws Exception {
        App app = jwtApp("user");
        Map<String, Object> first = tokens(app, "alice", "alice password 1");
        String second = access(app, "alice", "alice password 1");
        String refreshed = post("/oauth/token", app, "grant_type", "refresh_token", "refresh_token",
                (String) first.get("refresh_token")).statusCode(200).extract().path("access_token");
        Set<String> entries = new HashSet<>();
        for (String access : List.of((String) first.get("access_token"), second, refreshed)) {
            Map<String, Object> entry = entry(access);
            entries.add(entry.get("uri") + "#" + entry.get("idx"));
            assertEquals(StatusListBits.VALID, bit(access));
            String uri = (String) entry.get("uri");
            int list = Integer.parseInt(uri.substring(uri.lastIndexOf('/') + 1));
            // The row keeps its entry: what the triggers turn INVALID.
            try (Connection c = ServiceDatabase.connect(); Statement s = c.createStatement();
                    ResultSet r = s.executeQuery("SELECT status_list, status_idx FROM auth.token WHERE status_list = " + list
                            + " AND status_idx = " + entry.get("idx"))) {
                assertTrue(r.next(), "the token's row has its entry");
                assertFalse(r.next(), "and no other row has it");
            }
        }
        assertEquals(3, entries.size(), "each token its own entry, the refreshed one too: " + entries);

        // Opaque tokens name none, and their rows have none.
        App opaque = OAuthTestSupport.createApp(true, "user");
        String token = (String) OAuthTestSupport.aliceTokens(opaque, "user").get("access_token");
        assertFalse(token.contains("."), "an opaque token is no JWT");
        assertEquals(0, tokenId("application_id", opaque.id() + " AND status_idx IS NOT NULL"));
    }

    /**
     * Attack: indices handed out in issuance order let anyone with two tokens, and the public
     * lists, tell which tokens were issued together (and see their bits turn together at a
     * sign-out), and count the platform's tokens. Each is still unique, in no guessable order.
     */
    @Test
    void indicesAreUniqueAndInNoGuessableOrder() {
        List<Long> drawn = new java.util.ArrayList<>();
        for (int i = 0; i < 64; i++) {
            StatusIndex entry = indices.next().await().indefinitely();
            drawn.add((long) entry.list() * (1 << 20) + entry.idx());
        }
        assertEquals(64, new HashSet<>(drawn).size(), "no index twice: " + drawn);
        long successors = java.util.stream.IntStream.range(1, drawn.size())
                .filter(i -> drawn.get(i) == drawn.get(i - 1) + 1).count();
        // In a random order of 1,024, about 63/1,024 of them; in issuance order, nearly all.
        assertTrue(successors < 16, "consecutive indices follow each other " + successors + " times: " + drawn);
    }

    @Test
    void revokingTheTokenOrItsRefreshTokenSetsItsBit() throws Exception {
        App app = jwtApp("user");
        String revoked = access(app, "alice", "alice password 1");
        String other = access(app, "alice", "alice password 1");
        assertEquals(StatusListBits.VALID, bit(revoked));
        post("/oauth/revoke", app, "token", revoked).statusCode(200);
        becomesInvalid(revoked);
        assertEquals(StatusListBits.VALID, bit(other), "only the revoked token's");

        // A refresh token takes its authorization's access tokens with it.
        Map<String, Object> pair = tokens(app, "alice", "alice password 1");
        post("/oauth/revoke", app, "token", (String) pair.get("refresh_token")).statusCode(200);
        becomesInvalid((String) pair.get("access_token"));
        assertEquals(StatusListBits.VALID, bit(other));
    }

    @Test
    void thePersonRemovingTheAuthorizationSetsTheBits() throws Exception {
        App app = jwtApp("user");
        String first = access(app, "alice", "alice password 1");
        String second = access(app, "alice", "alice password 1");
        int grant = asPerson(ALICE, "alice", "public").get("/applications/grants").then().statusCode(200).extract().jsonPath()
                .getInt("find { it.app.client_id == '" + app.clientId() + "' }.id");
        asPerson(ALICE, "alice", "public").delete("/applications/grants/" + grant).then().statusCode(204);
        becomesInvalid(first);
        becomesInvalid(second);
    }

    /**
     * An erased account's tokens are revoked and then their rows deleted, long before they expire;
     * a deleted application takes its tokens' rows with it. The bits stay 1 all the same.
     */
    @Test
    void theBitStaysWhenTheRowGoesBeforeTheTokenExpires() throws Exception {
        App app = jwtApp("user");
        String pias = access(app, "pia", "pia password 15");
        given().header("X-Platform-Token", TestTokens.service("directory-service")).contentType("application/json")
                .body(Map.of("person_id", PIA, "username", "pia")).post("/internal/erasures").then().statusCode(204);
        assertEquals(0, tokenId("person_id", PIA), "the erasure forgot her revoked tokens");
        becomesInvalid(pias);

        App deleted = jwtApp("user");
        String alices = access(deleted, "alice", "alice password 1");
        assertEquals(StatusListBits.VALID, bit(alices));
        asPerson(OAuthTestSupport.OWNER_ID, "owner", "admin").delete("/applications/" + deleted.id()).then().statusCode(204);
        assertEquals(0, tokenId("application_id", deleted.id()), "the tokens went with the application");
        becomesInvalid(alices);
    }

    /**
     * Another replica's revocation, or one by hand, reaches this replica's list without a word to
     * it: no replica keeps a list for longer than half a second.
     */
    @Test
    void aRevocationMadeElsewhereShowsWithinASecond() throws Exception {
        App app = jwtApp("user");
        String access = access(app, "alice", "alice password 1");
        Map<String, Object> entry = entry(access);
        String uri = (String) entry.get("uri");
        int idx = ((Number) entry.get("idx")).intValue();
        assertEquals(StatusListBits.VALID, StatusListBits.status(list(uri), idx), "and this replica keeps that list now");
        Instant revokedAt;
        try (Connection c = ServiceDatabase.connect(); Statement s = c.createStatement()) {
            assertEquals(1, s.executeUpdate("UPDATE auth.token SET revoked_at = now() WHERE status_list = "
                    + uri.substring(uri.lastIndexOf('/') + 1) + " AND status_idx = " + idx));
            revokedAt = Instant.now();
        }
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
            Response response = given().get(uri.substring(ISSUER.length()));
            JWTClaimsSet claims = verified(response.asString(), "statuslist+jwt");
            byte[] bytes = StatusListBits.decode((String) claims.getJSONObjectClaim("status_list").get("lst"), 1 << 17);
            if (StatusListBits.status(bytes, idx) == StatusListBits.VALID) {
                // Only a list built before the revocation may still say VALID (iat is in whole seconds).
                assertTrue(!claims.getIssueTime().toInstant().isAfter(revokedAt), "a list built after it says VALID");
                return false;
            }
            return true;
        });
        // Set right by hand: valid again.
        try (Connection c = ServiceDatabase.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE auth.token SET revoked_at = NULL WHERE status_list = "
                    + uri.substring(uri.lastIndexOf('/') + 1) + " AND status_idx = " + idx);
        }
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> bit(access) == 0);
    }

    @Test
    void anExpiredTokensEntryIsPurgedAndTheRowOfARevokedOneOutlivesIt() throws Exception {
        App app = jwtApp("user");
        String access = access(app, "alice", "alice password 1");
        post("/oauth/revoke", app, "token", access).statusCode(200);
        becomesInvalid(access);
        Map<String, Object> entry = entry(access);
        String uri = (String) entry.get("uri");
        String where = "list = " + uri.substring(uri.lastIndexOf('/') + 1) + " AND idx = " + entry.get("idx");
        try (Connection c = ServiceDatabase.connect(); Statement s = c.createStatement()) {
            // Its token expired ten minutes ago: the purge may forget the entry; a live one it keeps.
            s.executeUpdate("UPDATE auth.token_status_invalid SET expires_at = now() - interval '10 minutes' WHERE " + where);
            assertTrue(repository.purgeExpired().await().indefinitely() >= 1);
            try (ResultSet r = s.executeQuery("SELECT count(*) FROM auth.token_status_invalid WHERE " + where)) {
                r.next();
                assertEquals(0, r.getInt(1));
            }
        }
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> bit(access) == 0);
    }

    /** Two replicas take blocks from one sequence: no index is handed out twice, however many ask at once. */
    @Test
    void noIndexIsHandedOutTwice() throws Exception {
        List<Uni<StatusIndex>> asked = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            asked.add(indices.next());
        }
        List<StatusIndex> handed = Uni.join().all(asked).andFailFast().await().atMost(Duration.ofMinutes(2));
        long otherReplicasBlock;
        try (Connection c = ServiceDatabase.connect(); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT nextval('auth.token_status_index')")) {
            r.next();
            otherReplicasBlock = r.getLong(1);
        }
        handed = new ArrayList<>(handed);
        handed.add(indices.next().await().indefinitely());
        Set<Long> distinct = new HashSet<>();
        for (StatusIndex index : handed) {
            long n = (long) index.list() * (1 << 20) + index.idx();
            assertTrue(distinct.add(n), "handed out twice: " + index);
            assertFalse(n >= otherReplicasBlock && n < otherReplicasBlock + 1024, "within the other replica's block: " + index);
        }
    }

    @Test
    void unknownListsAre404AndOtherMediaTypes406() throws Exception {
        App app = jwtApp("user");
        String uri = (String) entry(access(app, "alice", "alice password 1")).get("uri");
        String path = uri.substring(ISSUER.length());
        given().accept("*/*").get(path).then().statusCode(200).contentType(StatusListResource.MEDIA_TYPE);
        given().accept("application/json").get(path).then().statusCode(406)
                .contentType("application/problem+json").body("status", equalTo(406));
        for (String unknown : List.of("abc", "-1", "01", "2147483647", "99999999", "1e3", "0x1", "9999999999999")) {
            given().accept(StatusListResource.MEDIA_TYPE).get("/oauth/status-lists/" + unknown).then().statusCode(404)
                    .contentType("application/problem+json").body("status", equalTo(404));
        }
        given().accept(StatusListResource.MEDIA_TYPE).get(path + "?time=1686925000").then().statusCode(501)
                .contentType("application/problem+json");
        // A time that is no NumericDate, or two of them, is bad input: 400, never a 5xx.
        for (String query : List.of("?time=%00", "?time=1e309", "?time=99999999999999999999", "?time=1&time=2", "?time=")) {
            given().accept(StatusListResource.MEDIA_TYPE).get(path + query).then().statusCode(400)
                    .contentType("application/problem+json").body("status", equalTo(400));
        }
    }

    @Test
    void theMetadataNamesTheAggregationThatListsEveryList() throws Exception {
        App app = jwtApp("user");
        String uri = (String) entry(access(app, "alice", "alice password 1")).get("uri");
        String aggregation = given().get("/.well-known/oauth-authorization-server").then().statusCode(200)
                .extract().path("status_list_aggregation_endpoint");
        assertEquals(ISSUER + "/oauth/status-lists", aggregation);
        given().get("/oauth/status-lists").then().statusCode(200).contentType(containsString("application/json"))
                .body("status_lists", hasItem(uri));
        assertNull(given().get("/oauth/status-lists").then().extract().path("status_lists.find { it.endsWith('/-1') }"));
        assertNotEquals(0, given().get("/oauth/status-lists").then().extract().jsonPath().getList("status_lists").size());
    }
}
