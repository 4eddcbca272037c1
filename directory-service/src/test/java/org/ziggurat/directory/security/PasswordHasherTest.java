package org.ziggurat.directory.security;

import de.mkammerer.argon2.Argon2Version;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Argon2id in C and in Java: both are Argon2id (RFC 9106), so a hash made by one verifies with the other. */
class PasswordHasherTest {

    /** RFC 9106, section 5.3: Argon2id, m=32 KiB, t=3, p=4, with a secret and associated data. */
    static final byte[] RFC_9106_TAG = HexFormat.of().parseHex("0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659");

    static byte[] filled(int length, int value) {
        byte[] bytes = new byte[length];
        Arrays.fill(bytes, (byte) value);
        return bytes;
    }

    @Test
    void onLinuxX8664TheCLibraryHashes() {
        // Without it a password grant costs up to twice the CPU and 19 MiB of garbage; a dependency
        // change must not lose it silently.
        if (System.getProperty("os.name").equals("Linux") && System.getProperty("os.arch").equals("amd64")) {
            assertNotNull(PasswordHasher.NATIVE, "libargon2 did not load on linux-x86_64");
        }
    }

    @Test
    void bothImplementationsGiveTheRfc9106TestVector() {
        if (PasswordHasher.NATIVE != null) {
            assertArrayEquals(RFC_9106_TAG, PasswordHasher.NATIVE.rawHashAdvanced(3, 32, 4, filled(32, 1), filled(16, 2),
                    filled(8, 3), filled(12, 4), 32, Argon2Version.V13));
        }
        Argon2BytesGenerator java = new Argon2BytesGenerator();
        java.init(new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id).withVersion(Argon2Parameters.ARGON2_VERSION_13)
                .withMemoryAsKB(32).withIterations(3).withParallelism(4).withSalt(filled(16, 2))
                .withSecret(filled(8, 3)).withAdditional(filled(12, 4)).build());
        byte[] tag = new byte[32];
        java.generateBytes(filled(32, 1), tag);
        assertArrayEquals(RFC_9106_TAG, tag);
    }

    @Test
    void theTwoImplementationsAgreeOnOurParameters() {
        Random random = new Random(9106);
        for (int[] p : new int[][] {{19_456, 2, 1}, {7_168, 5, 1}, {64, 1, 2}}) {
            byte[] salt = new byte[16];
            random.nextBytes(salt);
            String password = "pässwörd " + p[0];
            assertArrayEquals(PasswordHasher.deriveInJava(password.getBytes(StandardCharsets.UTF_8), salt, p[0], p[1], p[2], 32),
                    PasswordHasher.derive(password, salt, p[0], p[1], p[2], 32), Arrays.toString(p));
        }
    }

    @Test
    void aHashStoredByTheJavaImplementationStillVerifies() {
        byte[] salt = filled(16, 7);
        byte[] javaHash = PasswordHasher.deriveInJava("correct horse".getBytes(StandardCharsets.UTF_8), salt, 1024, 2, 1, 32);
        Base64.Encoder b64 = Base64.getEncoder().withoutPadding();
        String phc = "$argon2id$v=19$m=1024,t=2,p=1$" + b64.encodeToString(salt) + "$" + b64.encodeToString(javaHash);
        PasswordHasher hasher = new PasswordHasher(1024, 2, 1);
        assertTrue(hasher.verify("correct horse", phc));
        assertFalse(hasher.verify("correct horse!", phc));
        assertTrue(hasher.verify("battery", hasher.hash("battery")));
    }
}
