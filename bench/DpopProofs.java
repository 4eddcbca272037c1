import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigInteger;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import java.util.List;
import java.util.stream.IntStream;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The DPoP bench's client (RFC 9449), with the JDK alone: one P-256 key; a DPoP-bound access token
 * from the password grant (its proof made with the key); the gateway's nonce (a first call without
 * one, refused with use_dpop_nonce and DPoP-Nonce, §9); then COUNT proofs for GET HTU with that
 * token and nonce, each with its own jti, one line each: the token, a tab, the proof. A proof is
 * good once, while its nonce is (a minute from its issue, less ten seconds at most), and while its
 * iat is within a minute of the server's clock either way: the proofs' iat is
 * {@link #AHEAD_SECONDS} ahead, so that a file made over half a minute is still good for the run
 * that follows it (the lines are made just before each run).
 *
 * <pre>java bench/DpopProofs.java TOKEN_ENDPOINT CLIENT_ID USERNAME PASSWORD HTU COUNT OUT</pre>
 */
public class DpopProofs {

    static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    static final long AHEAD_SECONDS = 45;

    public static void main(String[] args) throws Exception {
        if (args.length != 7) {
            System.err.println("usage: DpopProofs TOKEN_ENDPOINT CLIENT_ID USERNAME PASSWORD HTU COUNT OUT");
            System.exit(2);
        }
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair key = generator.generateKeyPair();
        String jwk = jwk((ECPublicKey) key.getPublic());
        String token = token(key, jwk, args[0], args[1], args[2], args[3]);
        String ath = B64.encodeToString(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.US_ASCII)));
        String nonce = nonce(key, jwk, args[4], token, ath);
        int count = Integer.parseInt(args[5]);
        // On every core: a signature costs a few hundred microseconds.
        List<String> proofs = IntStream.range(0, count).parallel().mapToObj(i -> {
            try {
                return proof(key, jwk, "GET", args[4], ath, nonce, AHEAD_SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).toList();
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(args[6])))) {
            for (String proof : proofs) {
                out.print(token);
                out.print('\t');
                out.println(proof);
            }
        }
    }

    /** The access token of a password grant whose request carries a proof of the key. */
    static String token(KeyPair key, String jwk, String endpoint, String clientId, String username, String password)
            throws Exception {
        String form = "grant_type=password&scope=user&client_id=" + enc(clientId) + "&username=" + enc(username)
                + "&password=" + enc(password);
        // HTTP/1.1: no h2c upgrade, which the gateway does not take on a request with a body.
        HttpResponse<String> answer = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(HttpRequest.newBuilder(URI.create(endpoint))
                .header("Content-Type", "application/x-www-form-urlencoded").header("Accept", "application/json")
                .header("DPoP", proof(key, jwk, "POST", endpoint, null, null, 0)).POST(HttpRequest.BodyPublishers.ofString(form))
                .build(), HttpResponse.BodyHandlers.ofString());
        Matcher type = Pattern.compile("\"token_type\"\\s*:\\s*\"DPoP\"").matcher(answer.body());
        Matcher token = Pattern.compile("\"access_token\"\\s*:\\s*\"([^\"]+)\"").matcher(answer.body());
        if (answer.statusCode() != 200 || !type.find() || !token.find()) {
            throw new IOException("no DPoP token: " + answer.statusCode() + " " + answer.body());
        }
        return token.group(1);
    }

    /**
     * The gateway's nonce (RFC 9449 §9), as a client learns it: a call whose proof has none is
     * refused with {@code use_dpop_nonce} and a {@code DPoP-Nonce} to use, good for a minute less
     * ten seconds at most.
     */
    static String nonce(KeyPair key, String jwk, String htu, String token, String ath) throws Exception {
        // The gateway hands out a new nonce every ten seconds: the first one after a change is good
        // for the longest, the run included.
        String first = askNonce(key, jwk, htu, token, ath);
        for (long until = System.currentTimeMillis() + 12_000; System.currentTimeMillis() < until; Thread.sleep(200)) {
            String nonce = askNonce(key, jwk, htu, token, ath);
            if (!nonce.equals(first)) {
                return nonce;
            }
        }
        return first;
    }

    static String askNonce(KeyPair key, String jwk, String htu, String token, String ath) throws Exception {
        HttpResponse<String> answer = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(
                HttpRequest.newBuilder(URI.create(htu)).header("Authorization", "DPoP " + token)
                        .header("DPoP", proof(key, jwk, "GET", htu, ath, null, 0)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        String nonce = answer.headers().firstValue("DPoP-Nonce").orElse(null);
        if (answer.statusCode() != 401 || nonce == null || !answer.headers().firstValue("WWW-Authenticate").orElse("")
                .contains("use_dpop_nonce")) {
            throw new IOException("no DPoP nonce: " + answer.statusCode() + " " + answer.body());
        }
        return nonce;
    }

    /** A proof (RFC 9449 §4.2): typ dpop+jwt, ES256, the public key; jti, htm, htu, iat, and ath for a token, nonce when given. */
    static String proof(KeyPair key, String jwk, String method, String htu, String ath, String nonce, long ahead) throws Exception {
        String header = "{\"typ\":\"dpop+jwt\",\"alg\":\"ES256\",\"jwk\":" + jwk + "}";
        String claims = "{\"jti\":\"" + UUID.randomUUID() + "\",\"htm\":\"" + method + "\",\"htu\":\"" + htu
                + "\",\"iat\":" + (System.currentTimeMillis() / 1000 + ahead) + (ath == null ? "" : ",\"ath\":\"" + ath + "\"")
                + (nonce == null ? "" : ",\"nonce\":\"" + nonce + "\"") + "}";
        String input = B64.encodeToString(header.getBytes(StandardCharsets.UTF_8)) + "."
                + B64.encodeToString(claims.getBytes(StandardCharsets.UTF_8));
        // JWS ES256 is R || S, 32 bytes each: the JDK's P1363 format, not DER.
        Signature signature = Signature.getInstance("SHA256withECDSAinP1363Format");
        signature.initSign(key.getPrivate());
        signature.update(input.getBytes(StandardCharsets.US_ASCII));
        return input + "." + B64.encodeToString(signature.sign());
    }

    static String jwk(ECPublicKey key) {
        return "{\"crv\":\"P-256\",\"kty\":\"EC\",\"x\":\"" + B64.encodeToString(fixed(key.getW().getAffineX()))
                + "\",\"y\":\"" + B64.encodeToString(fixed(key.getW().getAffineY())) + "\"}";
    }

    /** A coordinate as its 32 bytes, without the sign byte or leading zeros BigInteger gives or drops. */
    static byte[] fixed(BigInteger value) {
        byte[] bytes = value.toByteArray();
        byte[] out = new byte[32];
        int copy = Math.min(32, bytes.length);
        System.arraycopy(bytes, bytes.length - copy, out, 32 - copy, copy);
        return out;
    }

    static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
