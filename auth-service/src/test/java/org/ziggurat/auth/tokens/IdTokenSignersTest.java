package org.ziggurat.auth.tokens;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The signers of ID tokens: natively fast where the platform allows, and verifiable by anyone's JDK. */
class IdTokenSignersTest {

    @Test
    void onLinuxX8664TheNativeProviderSigns() {
        // Without it RS256 ID tokens cost three times the CPU; a dependency change must not lose it silently.
        if (System.getProperty("os.name").equals("Linux") && System.getProperty("os.arch").equals("amd64")) {
            assertNotNull(IdTokens.NATIVE, "AWS-LC did not load on linux-x86_64");
        }
    }

    @Test
    void anRs256SignatureVerifiesWithTheJdkAndOnlyForItsPayload() throws Exception {
        RSAKey key = new RSAKeyGenerator(2048).keyID("r1").generate();
        JWSObject jws = new JWSObject(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("r1").build(), new Payload("{\"sub\":\"7\"}"));
        jws.sign(IdTokens.signer(key));
        RSASSAVerifier jdk = new RSASSAVerifier(key.toPublicJWK());
        assertTrue(JWSObject.parse(jws.serialize()).verify(jdk));
        String[] parts = jws.serialize().split("\\.");
        String forged = parts[0] + "." + new Payload("{\"sub\":\"8\"}").toBase64URL() + "." + parts[2];
        assertFalse(JWSObject.parse(forged).verify(jdk));
        assertEquals(256, jws.getSignature().decode().length, "an RSA-2048 signature");
    }

    @Test
    void anEs256SignatureVerifiesWithTheJdk() throws Exception {
        ECKey key = new ECKeyGenerator(Curve.P_256).keyID("e1").generate();
        JWSObject jws = new JWSObject(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("e1").build(), new Payload("{\"sub\":\"7\"}"));
        jws.sign(IdTokens.signer(key));
        assertTrue(JWSObject.parse(jws.serialize()).verify(new ECDSAVerifier(key.toPublicJWK())));
        assertEquals(64, jws.getSignature().decode().length, "JWS's R||S form, not DER");
    }
}
