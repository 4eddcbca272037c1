package org.ziggurat.platform.token;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.Signature;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlatformKeysTest {

    @TempDir
    Path dir;

    @Test
    void generatesOnceAndPublishesEveryKey() throws Exception {
        Path gateway = PlatformKeys.ensureKey(dir, "gateway");
        byte[] first = Files.readAllBytes(gateway);
        PlatformKeys.ensureKey(dir, "gateway");
        assertArrayEquals(first, Files.readAllBytes(gateway), "an existing key is never replaced");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(gateway)));

        PlatformKeys.ensureKey(dir, "auth-service");
        JsonNode jwks = new ObjectMapper().readTree(PlatformKeys.writeJwks(dir).toFile());
        assertEquals(2, jwks.get("keys").size());
        JsonNode authKey = jwks.get("keys").get(0);
        assertTrue(authKey.get("kid").asText().startsWith("auth-service:"));
        assertEquals("RS256", authKey.get("alg").asText());
        assertNull(authKey.get("d"), "no private part in the JWKS");
    }

    @Test
    void keyIdIsStableAndNamesTheSigner() throws Exception {
        var key = PlatformKeys.readPrivateKey(PlatformKeys.ensureKey(dir, "gateway"));
        String kid = PlatformKeys.keyId("gateway", PlatformKeys.publicKeyOf(key));
        assertEquals(kid, PlatformKeys.keyId("gateway", PlatformKeys.publicKeyOf(key)));
        assertEquals("gateway", PlatformKeys.signerOf(kid));
        assertNull(PlatformKeys.signerOf("no-colon"));
        assertNull(PlatformKeys.signerOf(null));
    }

    @Test
    void theDerivedPublicKeyVerifiesWhatThePrivateKeySigned() throws Exception {
        var key = PlatformKeys.readPrivateKey(PlatformKeys.ensureKey(dir, "gateway"));
        Signature signer = Signature.getInstance("SHA256withRSA");
        signer.initSign(key);
        signer.update(new byte[] {1, 2, 3});
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance("SHA256withRSA");
        verifier.initVerify(PlatformKeys.publicKeyOf(key));
        verifier.update(new byte[] {1, 2, 3});
        assertTrue(verifier.verify(signature));
    }

    @Test
    void refusesSignerNamesThatCouldEscapeTheDirectory() {
        assertThrows(IllegalArgumentException.class, () -> PlatformKeys.ensureKey(dir, "../etc"));
        assertThrows(IllegalArgumentException.class, () -> PlatformKeys.ensureKey(dir, "Gateway"));
    }
}
