package org.ziggurat.platform.token;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;

/**
 * The platform's signing keys, with nothing but the JDK so that the launcher can run it before any
 * service exists: one RSA key pair per signer ({@code <signer>.private.pem}, PKCS#8) and the
 * JWKS of all their public keys ({@code jwks.json}) that every service trusts.
 *
 * <p>RS256 because verification, which every service does on every request, is far cheaper for
 * RSA than for ECDSA; signing is rare (the gateway signs once per access token and caches it).
 *
 * <p>Usage: {@code java -cp platform-common.jar org.ziggurat.platform.token.PlatformKeys DIR SIGNER...}
 * creates the missing keys and rewrites {@code DIR/jwks.json}.
 */
public final class PlatformKeys {

    public static final String PRIVATE_SUFFIX = ".private.pem";
    public static final String JWKS_FILE = "jwks.json";

    private PlatformKeys() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: PlatformKeys DIR SIGNER [SIGNER...]");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        for (int i = 1; i < args.length; i++) {
            ensureKey(dir, args[i]);
        }
        writeJwks(dir);
    }

    /** Creates {@code <signer>.private.pem} unless it exists. */
    public static Path ensureKey(Path dir, String signer) throws IOException, GeneralSecurityException {
        if (!signer.matches("[a-z0-9][a-z0-9-]{0,62}")) {
            throw new IllegalArgumentException("A signer name is lower-case letters, digits and dashes: " + signer);
        }
        Files.createDirectories(dir);
        Path file = dir.resolve(signer + PRIVATE_SUFFIX);
        if (!Files.exists(file)) {
            writePrivateKey(file, generate());
        }
        return file;
    }

    public static KeyPair generate() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
    }

    /** Writes the key readable by its owner only, atomically, so a reader never sees half a key. */
    public static void writePrivateKey(Path file, KeyPair pair) throws IOException {
        String pem = "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(pair.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        Path tmp = Files.createTempFile(file.getParent(), ".key", ".tmp");
        try {
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // Not a POSIX file system: the directory's own protection applies.
        }
        Files.writeString(tmp, pem, StandardCharsets.US_ASCII);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    public static RSAPrivateCrtKey readPrivateKey(Path file) throws IOException, GeneralSecurityException {
        String pem = Files.readString(file, StandardCharsets.US_ASCII)
                .replace("-----BEGIN PRIVATE KEY-----", "")
                .replace("-----END PRIVATE KEY-----", "")
                .replaceAll("\\s", "");
        byte[] der = Base64.getDecoder().decode(pem);
        return (RSAPrivateCrtKey) KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
    }

    public static RSAPublicKey publicKeyOf(RSAPrivateCrtKey key) throws GeneralSecurityException {
        return (RSAPublicKey) KeyFactory.getInstance("RSA")
                .generatePublic(new RSAPublicKeySpec(key.getModulus(), key.getPublicExponent()));
    }

    /**
     * The key id: the signer's name, a colon, and the start of the key's RFC 7638 thumbprint.
     * Receivers learn the signer from it; the thumbprint part lets two keys of one signer coexist
     * during a rotation.
     */
    public static String keyId(String signer, RSAPublicKey key) {
        try {
            String canonical = "{\"e\":\"" + b64(key.getPublicExponent()) + "\",\"kty\":\"RSA\",\"n\":\""
                    + b64(key.getModulus()) + "\"}";
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
            return signer + ":" + Base64.getUrlEncoder().withoutPadding().encodeToString(digest).substring(0, 16);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** The signer named by a key id of the form {@link #keyId} writes; null for any other form. */
    public static String signerOf(String keyId) {
        if (keyId == null) {
            return null;
        }
        int colon = keyId.indexOf(':');
        return colon > 0 ? keyId.substring(0, colon) : null;
    }

    public static String jwk(String signer, RSAPublicKey key) {
        return "{\"kty\":\"RSA\",\"use\":\"sig\",\"alg\":\"RS256\",\"kid\":\"" + keyId(signer, key)
                + "\",\"n\":\"" + b64(key.getModulus()) + "\",\"e\":\"" + b64(key.getPublicExponent()) + "\"}";
    }

    /** Rewrites {@code jwks.json} from every private key in the directory. */
    public static Path writeJwks(Path dir) throws IOException, GeneralSecurityException {
        List<String> keys = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(PRIVATE_SUFFIX)).sorted().toList()) {
                String name = file.getFileName().toString();
                String signer = name.substring(0, name.length() - PRIVATE_SUFFIX.length());
                keys.add(jwk(signer, publicKeyOf(readPrivateKey(file))));
            }
        }
        Path jwks = dir.resolve(JWKS_FILE);
        Path tmp = Files.createTempFile(dir, ".jwks", ".tmp");
        Files.writeString(tmp, "{\"keys\":[" + String.join(",", keys) + "]}\n", StandardCharsets.UTF_8);
        Files.move(tmp, jwks, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return jwks;
    }

    private static String b64(BigInteger value) {
        byte[] bytes = value.toByteArray();
        if (bytes.length > 1 && bytes[0] == 0) {
            byte[] unsigned = new byte[bytes.length - 1];
            System.arraycopy(bytes, 1, unsigned, 0, unsigned.length);
            bytes = unsigned;
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
