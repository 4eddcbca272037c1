package org.ziggurat.auth.oauth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.regex.Pattern;

/** RFC 7636 with S256 only: the plain method would let an eavesdropper of the code redeem it. */
public final class Pkce {

    public static final String S256 = "S256";
    private static final Pattern VERIFIER = Pattern.compile("[A-Za-z0-9._~-]{43,128}");
    private static final Pattern CHALLENGE = Pattern.compile("[A-Za-z0-9_-]{43}");

    private Pkce() {
    }

    /** The challenge to store, checked: S256 only, a well-formed base64url SHA-256. */
    public static String challenge(String challenge, String method) {
        if (challenge == null || challenge.isEmpty()) {
            if (method != null && !method.isEmpty()) {
                throw OAuthException.invalidRequest("code_challenge_method without code_challenge.");
            }
            return null;
        }
        if (method != null && !method.isEmpty() && !S256.equals(method)) {
            throw OAuthException.invalidRequest("Only the S256 code_challenge_method is supported.");
        }
        if (method == null || method.isEmpty()) {
            // RFC 7636 defaults to "plain", which we do not accept.
            throw OAuthException.invalidRequest("code_challenge_method=S256 is required with a code_challenge.");
        }
        if (!CHALLENGE.matcher(challenge).matches()) {
            throw OAuthException.invalidRequest("code_challenge is not a base64url SHA-256 value.");
        }
        return challenge;
    }

    public static boolean matches(String verifier, String challenge) {
        if (verifier == null || challenge == null || !VERIFIER.matcher(verifier).matches()) {
            return false;
        }
        return MessageDigest.isEqual(s256(verifier).getBytes(StandardCharsets.US_ASCII),
                challenge.getBytes(StandardCharsets.US_ASCII));
    }

    public static String s256(String verifier) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
