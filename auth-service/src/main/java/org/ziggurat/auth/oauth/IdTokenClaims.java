package org.ziggurat.auth.oauth;

import com.nimbusds.jwt.JWTClaimsSet;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Base64;
import java.util.Date;

/**
 * The claims of an ID token (OpenID Connect Core §2, §3.1.3.6), apart from keys and signing, so
 * that they are tested on their own.
 */
public final class IdTokenClaims {

    private IdTokenClaims() {
    }

    /**
     * What an ID token says. {@code sub} is the person's id, which never changes, never the
     * username, which may; {@code authTime} and {@code nonce} are left out when null (a refresh
     * carries no nonce: Core §12.2).
     */
    public record Subject(String issuer, long personId, String clientId, Instant authTime, String nonce,
            List<String> amr) {
    }

    public static JWTClaimsSet of(Subject subject, String accessToken, Instant issuedAt, Duration lifetime) {
        return of(subject, accessToken, issuedAt, lifetime, java.util.Map.of());
    }

    /** With {@code more} claims (the research claims the scopes ask for), which never replace the ones above. */
    public static JWTClaimsSet of(Subject subject, String accessToken, Instant issuedAt, Duration lifetime,
            java.util.Map<String, Object> more) {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder();
        // First, so that the token's own claims, set after, replace any of the same name.
        more.forEach(claims::claim);
        claims.issuer(subject.issuer())
                .subject(Long.toString(subject.personId()))
                .audience(subject.clientId())
                .expirationTime(Date.from(issuedAt.plus(lifetime)))
                .issueTime(Date.from(issuedAt))
                .claim("azp", subject.clientId());
        if (subject.authTime() != null) {
            claims.claim("auth_time", subject.authTime().getEpochSecond());
        }
        if (subject.amr() != null) {
            // How the person signed in (RFC 8176), and its class, for an application that asked (acr_values).
            // A provider that said nothing of its methods leaves amr out (an empty list would say no method).
            if (!subject.amr().isEmpty()) {
                claims.claim("amr", subject.amr());
            }
            claims.claim("acr", AuthenticationMethods.acr(subject.amr()));
        }
        if (subject.nonce() != null) {
            claims.claim("nonce", subject.nonce());
        }
        if (accessToken != null) {
            claims.claim("at_hash", atHash(accessToken));
        }
        return claims.build();
    }

    /**
     * What an ID token carries of a person's {@code claims} (as their scopes give them): the research
     * claims those scopes ask for, as always, and the claims the request named for it (Core §5.5).
     */
    public static java.util.Map<String, Object> chosen(java.util.Map<String, Object> claims, java.util.Collection<String> asked) {
        java.util.Map<String, Object> chosen = new java.util.LinkedHashMap<>();
        claims.forEach((name, value) -> {
            if (ResearchClaims.SUPPORTED.contains(name) || asked.contains(name)) {
                chosen.put(name, value);
            }
        });
        return chosen;
    }

    /**
     * Core §3.1.3.6: the left half of the access token's SHA-256 (the hash of RS256 and ES256 alike),
     * base64url without padding.
     */
    public static String atHash(String accessToken) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(accessToken.getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(digest, digest.length / 2));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
