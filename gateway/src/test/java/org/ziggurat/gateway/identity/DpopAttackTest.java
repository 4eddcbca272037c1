package org.ziggurat.gateway.identity;

import com.nimbusds.oauth2.sdk.dpop.DefaultDPoPProofFactory;
import com.nimbusds.oauth2.sdk.id.JWTID;
import com.nimbusds.oauth2.sdk.token.DPoPAccessToken;
import com.nimbusds.openid.connect.sdk.Nonce;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.ziggurat.gateway.GatewayConfig;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.Date;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.ziggurat.gateway.identity.DpopCallsTest.PUBLIC;
import static org.ziggurat.gateway.identity.DpopCallsTest.SECRET;
import static org.ziggurat.gateway.identity.DpopCallsTest.boundToken;
import static org.ziggurat.gateway.identity.DpopCallsTest.key;
import static org.ziggurat.gateway.identity.DpopCallsTest.nonceOf;
import static org.ziggurat.gateway.identity.DpopCallsTest.proof;

/**
 * DPoP nonces and the gateways' peer channel as an outsider tries them: each test would fail if
 * the door it tries were open.
 */
@QuarkusTest
class DpopAttackTest {

    static final URI ALICE = URI.create(PUBLIC + "/people/alice");

    @Inject
    Vertx vertx;
    @Inject
    GatewayConfig config;
    @Inject
    DpopNonces nonces;

    /** A proof with the jti the test chooses (a client's own choice, within the proof it signs). */
    static String proofWithJti(DefaultDPoPProofFactory key, String jti, String token, String nonce) throws Exception {
        return key.createDPoPJWT(new JWTID(jti), "GET", ALICE, new Date(), new DPoPAccessToken(token), new Nonce(nonce))
                .serialize();
    }

    static int call(String token, String proof) {
        return given().header("Authorization", "DPoP " + token).header("DPoP", proof).get("/api/people/alice").then()
                .extract().statusCode();
    }

    @Test
    void aCallerPastItsRateLimitAddsNothingToTheReplaySet() throws Exception {
        DefaultDPoPProofFactory key = key();
        String jkt = key.getPublicJWK().computeThumbprint().toString();
        String token = boundToken(jkt);
        String nonce = nonceOf(token, proof(key, "GET", ALICE, token, null));
        int limit = config.rateLimit().authenticated();
        for (int i = 0; i < limit; i++) {
            assertEquals(200, call(token, proof(key, "GET", ALICE, token, nonce)));
        }
        // Past the limit: each call a good new proof, refused by the limit before its first use is
        // remembered (else every refused call would hold memory at the nonce's issuer for a minute).
        String jti = "past-the-limit";
        given().header("Authorization", "DPoP " + token).header("DPoP", proofWithJti(key, jti, token, nonce))
                .get("/api/people/alice").then().statusCode(429).header("DPoP-Nonce", notNullValue());
        DpopNonces.Nonce read = nonces.read(nonce);
        assertEquals(true, nonces.firstUse(read.epoch(), read.issuedAt(), jkt, jti), "not remembered when refused");
    }

    @Test
    void aReplayStaysOneWhateverTheNoncesSpellingOrTheJtisSpaces() throws Exception {
        DefaultDPoPProofFactory key = key();
        String token = boundToken(key.getPublicJWK().computeThumbprint().toString());
        String nonce = nonceOf(token, proof(key, "GET", ALICE, token, null));
        assertEquals(200, call(token, proofWithJti(key, "a b", token, nonce)));
        // The same jti in a new proof whose nonce is spelt otherwise (padded base64 decodes the same):
        // the replay set is by key and jti, not by the nonce's string.
        // (A nonce whose length needs no padding has no such spelling; the rest of the test runs either way.)
        String padded = nonce + "=".repeat((4 - nonce.length() % 4) % 4);
        if (!padded.equals(nonce)) {
            given().header("Authorization", "DPoP " + token).header("DPoP", proofWithJti(key, "a b", token, padded))
                    .get("/api/people/alice").then().statusCode(401).body("detail", containsString("used already"));
        }
        // Another case is another nonce, whose MAC does not hold.
        String recased = nonce.chars().anyMatch(Character::isLowerCase) ? nonce.toUpperCase() : nonce.toLowerCase();
        given().header("Authorization", "DPoP " + token).header("DPoP", proofWithJti(key, "a c", token, recased))
                .get("/api/people/alice").then().statusCode(401)
                .header("WWW-Authenticate", containsString("use_dpop_nonce"));
        // Spaces in jtis neither merge two proofs (a first use refused as a replay) nor split one.
        assertEquals(200, call(token, proofWithJti(key, "a", token, nonce)));
        assertEquals(200, call(token, proofWithJti(key, "a  b", token, nonce)));
        assertEquals(401, call(token, proofWithJti(key, "a b", token, nonce)));
    }

    @Test
    void aProofForOneTokenIsNothingWithAnotherTokenOfTheSameKey() throws Exception {
        DefaultDPoPProofFactory key = key();
        String jkt = key.getPublicJWK().computeThumbprint().toString();
        String first = boundToken(jkt);
        String second = boundToken(jkt);
        String nonce = nonceOf(first, proof(key, "GET", ALICE, first, null));
        // The proof's ath is the first token's hash: with the second it is refused, and not remembered.
        String proofOfFirst = proofWithJti(key, "for-the-first", first, nonce);
        given().header("Authorization", "DPoP " + second).header("DPoP", proofOfFirst).get("/api/people/alice").then()
                .statusCode(401).header("WWW-Authenticate", containsString("invalid_dpop_proof"));
        assertEquals(200, call(first, proofOfFirst));
    }

    @Test
    void aSecondDpopHeaderIsRefusedNotSkipped() throws Exception {
        DefaultDPoPProofFactory key = key();
        String token = boundToken(key.getPublicJWK().computeThumbprint().toString());
        String nonce = nonceOf(token, proof(key, "GET", ALICE, token, null));
        // Two good proofs, each alone accepted: together the call is refused (RFC 9449 §4.3).
        given().header("Authorization", "DPoP " + token).header("DPoP", proof(key, "GET", ALICE, token, nonce))
                .header("DPoP", proof(key, "GET", ALICE, token, nonce)).get("/api/people/alice").then().statusCode(401)
                .header("WWW-Authenticate", containsString("invalid_dpop_proof"))
                .body("detail", containsString("one DPoP header"));
        assertEquals(200, call(token, proof(key, "GET", ALICE, token, nonce)));
    }

    @Test
    void aSlowOrSilentIssuerNeverLetsAProofPass() throws Exception {
        // A gateway that accepts the question and never answers: the proof is refused (its nonce
        // cannot be checked), never accepted unchecked, and the caller is given one of ours.
        HttpServer silent = vertx.createHttpServer().requestHandler(request -> { })
                .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        try {
            DpopNonces issuer = new DpopNonces(SECRET, 60, Clock.systemUTC());
            issuer.issueAs("127.0.0.1:" + silent.actualPort());
            DefaultDPoPProofFactory key = key();
            String token = boundToken(key.getPublicJWK().computeThumbprint().toString());
            given().header("Authorization", "DPoP " + token).header("DPoP", proof(key, "GET", ALICE, token, issuer.current()))
                    .get("/api/people/alice").then().statusCode(401)
                    .header("WWW-Authenticate", containsString("use_dpop_nonce"));
        } finally {
            silent.close();
        }
    }

    /** This replica's peer port, as its nonces name it. */
    URI peer() {
        return URI.create("http://" + nonces.read(nonces.current()).issuer() + DpopPeers.PATH);
    }

    HttpResponse<String> ask(HttpRequest.Builder request) throws IOException, InterruptedException {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpRequest.Builder question(String body) {
        return HttpRequest.newBuilder(peer()).header("Authorization", "Gateway " + nonces.peerCredential())
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    @Test
    void thePeerPortAnswersGatewaysOnlyAndNeverWithA500() throws Exception {
        DpopNonces.Nonce nonce = nonces.read(nonces.current());
        String good = new io.vertx.core.json.JsonObject(Map.of("epoch", nonce.epoch(), "issued_at", nonce.issuedAt(),
                "jkt", "attack-jkt", "jti", "attack-jti")).encode();
        // Without the credential, or with another (its length, or one character off): 401, and the
        // answer names nothing.
        HttpResponse<String> anonymous = ask(HttpRequest.newBuilder(peer()).POST(HttpRequest.BodyPublishers.ofString(good)));
        assertEquals(401, anonymous.statusCode());
        assertEquals("", anonymous.body());
        String credential = nonces.peerCredential();
        String offByOne = credential.substring(0, credential.length() - 1) + (credential.endsWith("A") ? "B" : "A");
        for (String wrong : new String[] {"Gateway " + offByOne, "Gateway " + credential + "x", "Bearer " + credential}) {
            assertEquals(401, ask(HttpRequest.newBuilder(peer()).header("Authorization", wrong)
                    .POST(HttpRequest.BodyPublishers.ofString(good))).statusCode(), wrong);
        }
        assertEquals(404, ask(HttpRequest.newBuilder(peer()).header("Authorization", "Gateway " + credential).GET()).statusCode());
        // Bad questions: 400, never a 500.
        for (String bad : new String[] {"", "not json", "[]", "{}", "{\"epoch\":\"x\",\"issued_at\":1,\"jkt\":\"a\",\"jti\":\"b\"}",
                "{\"epoch\":1}", "{\"epoch\":1,\"issued_at\":1,\"jkt\":{},\"jti\":\"b\"}"}) {
            assertEquals(400, ask(question(bad)).statusCode(), bad);
        }
        // A good one, once: 201 then 409.
        assertEquals(201, ask(question(good)).statusCode());
        assertEquals(409, ask(question(good)).statusCode());
    }

    @Test
    void thePeerPortReadsNoBodyLongerThanAQuestion() throws Exception {
        String credential = nonces.peerCredential();
        // A body without a length (chunked), or longer than any question: refused before it is read.
        byte[] large = new byte[DpopPeers.MAX_QUESTION + 1];
        assertEquals(413, ask(HttpRequest.newBuilder(peer()).header("Authorization", "Gateway " + credential)
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(large)))).statusCode());
        assertEquals(413, ask(question("{\"jti\":\"" + "x".repeat(DpopPeers.MAX_QUESTION) + "\"}")).statusCode());
    }

    @Test
    void thePeerPortListensOnThePeerHostAloneNotOnTheApisWildcard() throws Exception {
        // The API on every address (the launcher's ZIGGURAT_GATEWAY_HOST=0.0.0.0), the peer host loopback.
        assertEquals(Optional.of("127.0.0.1"), config.dpop().peerHost());
        Optional<InetAddress> outside = NetworkInterface.networkInterfaces().filter(i -> {
            try {
                return i.isUp() && !i.isLoopback();
            } catch (IOException e) {
                return false;
            }
        }).flatMap(NetworkInterface::inetAddresses).filter(a -> a instanceof Inet4Address).findFirst();
        assumeTrue(outside.isPresent(), "this machine has no address but loopback");
        DpopNonces other = new DpopNonces(SECRET, 60, Clock.systemUTC());
        DpopPeers peers = new DpopPeers(other, config, "0.0.0.0");
        peers.start(null, vertx);
        try {
            int port = Integer.parseInt(other.read(other.current()).issuer().split(":")[1]);
            try (Socket loopback = new Socket("127.0.0.1", port)) {
                assertFalse(loopback.isClosed());
            }
            assertThrows(IOException.class, () -> {
                try (Socket socket = new Socket()) {
                    socket.connect(new InetSocketAddress(outside.get(), port), 5000);
                }
            }, "the peer port answers on " + outside.get());
        } finally {
            peers.stop(null);
        }
    }
}
