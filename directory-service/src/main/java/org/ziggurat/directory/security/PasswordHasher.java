package org.ziggurat.directory.security;

import de.mkammerer.argon2.Argon2Advanced;
import de.mkammerer.argon2.Argon2Factory;
import de.mkammerer.argon2.Argon2Version;
import io.quarkus.runtime.ImageMode;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Argon2id password hashes in the PHC string form ({@code $argon2id$v=19$m=19456,t=2,p=1$salt$hash}),
 * computed by libargon2 or, where it does not load, Bouncy Castle. The parameters of each hash travel with it, so they can be raised
 * later without invalidating stored hashes. CPU- and memory-heavy: call it off the event loop.
 */
public final class PasswordHasher {

    /** OWASP's minimum for Argon2id: 19 MiB, 2 iterations, 1 lane. */
    public static final int DEFAULT_MEMORY_KIB = 19_456;
    public static final int DEFAULT_ITERATIONS = 2;
    public static final int DEFAULT_PARALLELISM = 1;

    private static final int SALT_BYTES = 16;
    private static final int HASH_BYTES = 32;
    private static final Base64.Encoder B64 = Base64.getEncoder().withoutPadding();
    private static final Base64.Decoder B64D = Base64.getDecoder();

    private final SecureRandom random = new SecureRandom();
    private final int memoryKib;
    private final int iterations;
    private final int parallelism;

    public PasswordHasher(int memoryKib, int iterations, int parallelism) {
        this.memoryKib = memoryKib;
        this.iterations = iterations;
        this.parallelism = parallelism;
    }

    public String hash(String password) {
        byte[] salt = new byte[SALT_BYTES];
        random.nextBytes(salt);
        byte[] hash = derive(password, salt, memoryKib, iterations, parallelism, HASH_BYTES);
        return "$argon2id$v=19$m=" + memoryKib + ",t=" + iterations + ",p=" + parallelism
                + "$" + B64.encodeToString(salt) + "$" + B64.encodeToString(hash);
    }

    /** True when the password matches; false also for a stored value that is not an Argon2id PHC string. */
    public boolean verify(String password, String phc) {
        String[] parts = phc == null ? new String[0] : phc.split("\\$");
        // "", "argon2id", "v=19", "m=..,t=..,p=..", salt, hash
        if (parts.length != 6 || !parts[1].equals("argon2id") || !parts[2].equals("v=19")) {
            return false;
        }
        try {
            int m = 0;
            int t = 0;
            int p = 0;
            for (String kv : parts[3].split(",")) {
                String[] pair = kv.split("=", 2);
                int value = Integer.parseInt(pair[1]);
                switch (pair[0]) {
                    case "m" -> m = value;
                    case "t" -> t = value;
                    case "p" -> p = value;
                    default -> {
                        return false;
                    }
                }
            }
            byte[] salt = B64D.decode(parts[4]);
            byte[] expected = B64D.decode(parts[5]);
            byte[] actual = derive(password, salt, m, t, p, expected.length);
            return MessageDigest.isEqual(expected, actual);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** A hash of a random password with the current parameters: verifying against it costs what a real check costs. */
    public String decoy() {
        byte[] noise = new byte[24];
        random.nextBytes(noise);
        return hash(B64.encodeToString(noise));
    }

    static byte[] derive(String password, byte[] salt, int memoryKib, int iterations, int parallelism, int length) {
        byte[] secret = password.getBytes(StandardCharsets.UTF_8);
        if (NATIVE != null) {
            return NATIVE.rawHashAdvanced(iterations, memoryKib, parallelism, secret, salt, null, null, length,
                    Argon2Version.V13);
        }
        return deriveInJava(secret, salt, memoryKib, iterations, parallelism, length);
    }

    static byte[] deriveInJava(byte[] secret, byte[] salt, int memoryKib, int iterations, int parallelism, int length) {
        Argon2Parameters parameters = new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
                .withVersion(Argon2Parameters.ARGON2_VERSION_13)
                .withMemoryAsKB(memoryKib)
                .withIterations(iterations)
                .withParallelism(parallelism)
                .withSalt(salt)
                .build();
        Argon2BytesGenerator generator = new Argon2BytesGenerator();
        generator.init(parameters);
        byte[] out = new byte[length];
        generator.generateBytes(secret, out);
        return out;
    }

    /**
     * libargon2 (the reference implementation, through JNA), where its bundled library loads: faster
     * than Bouncy Castle at the same parameters, with its memory outside the heap. Null elsewhere (a native image, a platform without the library): Bouncy Castle then.
     */
    static final Argon2Advanced NATIVE = nativeArgon2();

    private static Argon2Advanced nativeArgon2() {
        Logger log = Logger.getLogger(PasswordHasher.class);
        if (ImageMode.current().isNativeImage()) {
            log.info("Argon2id in Java (Bouncy Castle): native image");
            return null;
        }
        try {
            Argon2Advanced argon2 = Argon2Factory.createAdvanced(Argon2Factory.Argon2Types.ARGON2id);
            argon2.rawHashAdvanced(1, 8, 1, new byte[1], new byte[8], null, null, 32, Argon2Version.V13);
            log.info("Argon2id in C (libargon2)");
            return argon2;
        } catch (Throwable unavailable) {
            // UnsatisfiedLinkError and the like: no bundled library for this platform.
            log.infof("Argon2id in Java (Bouncy Castle): %s", unavailable.toString());
            return null;
        }
    }
}
