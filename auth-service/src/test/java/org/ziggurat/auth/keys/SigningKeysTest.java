package org.ziggurat.auth.keys;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.factories.DefaultJWSSignerFactory;
import com.nimbusds.jose.crypto.factories.DefaultJWSVerifierFactory;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The keys that will sign ID tokens: published as a JWK Set without their private halves, stored
 * encrypted, one series per algorithm whatever the number of replicas, rotated with the next key
 * published before it signs and the last kept until its tokens have expired.
 */
@QuarkusTest
class SigningKeysTest {

    static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    SigningKeys keys;

    @Inject
    Pool pool;

    @Test
    void theJwksPublishesThePublicKeysOfBothAlgorithms() throws Exception {
        String body = given().get("/oauth/jwks").then().statusCode(200).contentType("application/json")
                .header("Cache-Control", containsString("max-age")).extract().asString();
        JWKSet set = JWKSet.parse(body);
        assertTrue(set.getKeys().stream().anyMatch(k -> JWSAlgorithm.RS256.equals(k.getAlgorithm())), body);
        assertTrue(set.getKeys().stream().anyMatch(k -> JWSAlgorithm.ES256.equals(k.getAlgorithm())), body);
        assertTrue(set.getKeys().stream().noneMatch(JWK::isPrivate), "a private key is published: " + body);
        assertFalse(body.contains("\"d\""), body);
        given().get("/.well-known/oauth-authorization-server").then().statusCode(200)
                .body("jwks_uri", equalTo("http://localhost:8080/api/oauth/jwks"));
    }

    @Test
    void privateKeysAreStoredEncryptedAndSignWhatThePublishedKeysVerify() throws Exception {
        keys.published().await().atMost(WAIT);
        for (Row row : pool.query("SELECT kid, private_jwk FROM signing_key").execute().await().atMost(WAIT)) {
            String stored = new String(row.getBuffer("private_jwk").getBytes(), StandardCharsets.ISO_8859_1);
            assertFalse(stored.contains("\"d\"") || stored.contains(row.getString("kid")), "stored in the clear: " + stored);
        }
        JWKSet published = keys.published().await().atMost(WAIT);
        for (String alg : SigningKeys.ALGORITHMS) {
            JWK signer = keys.signing(alg).await().atMost(WAIT);
            assertTrue(signer.isPrivate());
            JWSObject jws = new JWSObject(new JWSHeader.Builder(JWSAlgorithm.parse(alg)).keyID(signer.getKeyID()).build(),
                    new Payload("{\"sub\":\"1\"}"));
            jws.sign(new DefaultJWSSignerFactory().createJWSSigner(signer));
            JWSObject received = JWSObject.parse(jws.serialize());
            JWK verifier = published.getKeyByKeyId(received.getHeader().getKeyID());
            assertTrue(received.verify(new DefaultJWSVerifierFactory().createJWSVerifier(received.getHeader(),
                    alg.equals("RS256") ? verifier.toRSAKey().toPublicKey() : verifier.toECKey().toPublicKey())), alg);
        }
    }

    @Test
    void rotationPublishesTheNextKeyBeforeItSignsAndKeepsTheLastUntilItsTokensExpire() {
        pool.query("DELETE FROM signing_key").execute().await().atMost(WAIT);
        // Two replicas rotating at once make one key per algorithm.
        Uni.combine().all().unis(keys.rotate(), keys.rotate(), keys.rotate()).discardItems().await().atMost(WAIT);
        assertEquals(List.of(1L, 1L), countsByAlgorithm());
        String first = keys.signing("RS256").await().atMost(WAIT).getKeyID();

        // Within the lead of its retirement: the next key is published, the first still signs.
        update("UPDATE signing_key SET retire_at = now() + interval '1 hour', drop_at = now() + interval '3 hours' "
                + "WHERE kid = $1", first);
        keys.rotate().await().atMost(WAIT);
        assertEquals(List.of(2L, 1L), countsByAlgorithm());
        List<String> published = kids();
        assertTrue(published.contains(first) && published.size() == 3, published.toString());
        assertEquals(first, keys.signing("RS256").await().atMost(WAIT).getKeyID());

        // Retired: the next one signs; the first is still published for the tokens it signed.
        update("UPDATE signing_key SET retire_at = now() - interval '1 second' WHERE kid = $1", first);
        keys.rotate().await().atMost(WAIT);
        String second = keys.signing("RS256").await().atMost(WAIT).getKeyID();
        assertNotEquals(first, second);
        assertTrue(kids().contains(first));
        assertEquals(List.of(2L, 1L), countsByAlgorithm(), "no third key while the second signs for a lifetime");

        // Its tokens have all expired: it goes.
        update("UPDATE signing_key SET retire_at = now() - interval '2 seconds', drop_at = now() - interval '1 second' "
                + "WHERE kid = $1", first);
        keys.rotate().await().atMost(WAIT);
        assertFalse(kids().contains(first));
        assertEquals(List.of(1L, 1L), countsByAlgorithm());
    }

    /**
     * A replica's copy of the keys is up to a minute old: when every key in it has retired (the
     * successor came later, from another replica), signing reads the keys again instead of failing.
     */
    @Test
    void aReplicaWhoseKnownKeysAllRetiredReadsThemAgain() {
        pool.query("UPDATE signing_key SET retire_at = now() + interval '1 second', drop_at = now() + interval '1 hour' "
                + "WHERE alg = 'RS256'").execute().await().atMost(WAIT);
        keys.forgetCopy();
        // This replica's copy: the key signs for one second more, and nothing follows it yet.
        String before = keys.signing("RS256").await().atMost(WAIT).getKeyID();
        java.time.Instant retires = pool.preparedQuery("SELECT retire_at FROM signing_key WHERE kid = $1")
                .execute(Tuple.of(before)).await().atMost(WAIT).iterator().next().getOffsetDateTime("retire_at").toInstant();
        org.awaitility.Awaitility.await().atMost(WAIT).until(() -> java.time.Instant.now().isAfter(retires));
        String after = keys.signing("RS256").await().atMost(WAIT).getKeyID();
        assertNotEquals(before, after);
        assertTrue(kids().contains(before), "the retired key stays published for what it signed");
    }

    private void update(String sql, String kid) {
        pool.preparedQuery(sql).execute(Tuple.of(kid)).await().atMost(WAIT);
    }

    private List<Long> countsByAlgorithm() {
        List<Long> counts = new ArrayList<>();
        for (String alg : SigningKeys.ALGORITHMS) {
            counts.add(pool.preparedQuery("SELECT count(*) AS n FROM signing_key WHERE alg = $1").execute(Tuple.of(alg))
                    .await().atMost(WAIT).iterator().next().getLong("n"));
        }
        return counts;
    }

    private List<String> kids() {
        return keys.published().await().atMost(WAIT).getKeys().stream().map(JWK::getKeyID).toList();
    }
}
