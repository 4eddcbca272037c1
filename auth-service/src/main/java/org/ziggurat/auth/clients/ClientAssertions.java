package org.ziggurat.auth.clients;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.factories.DefaultJWSVerifierFactory;
import com.nimbusds.jose.jwk.AsymmetricJWK;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import org.ziggurat.auth.oauth.OAuthException;

import java.security.Key;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Set;

/**
 * The rules of a client assertion (private_key_jwt: RFC 7523 §3, OpenID Connect Core §9), apart
 * from where the keys come from and the jti's single use: a JWT signed with one of the client's
 * registered public keys by an asymmetric algorithm (the one it registered, if it did), whose
 * {@code iss} and {@code sub} are the client, whose {@code aud} names this server (its issuer or
 * one of the endpoints that take client authentication), with an {@code exp} at most ten minutes
 * ahead and a {@code jti}.
 */
public final class ClientAssertions {

    /** RFC 7523 §2.2. */
    public static final String TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
    public static final List<String> ALGORITHMS = List.of("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256",
            "ES384", "ES512");
    /** The endpoints whose address an assertion's audience may be (besides the issuer). */
    static final List<String> ENDPOINTS = List.of("/oauth/token", "/oauth/par", "/oauth/introspect", "/oauth/revoke",
            "/oauth/device_authorization");
    static final Duration MOST_AHEAD = Duration.ofMinutes(10);
    static final Duration SKEW = Duration.ofSeconds(60);

    private ClientAssertions() {
    }

    /** What a checked assertion leaves to do: its jti's single use until it expires. */
    public record Checked(String jti, Instant expiresAt) {
    }

    /** The client an assertion names ({@code sub}, before any check), or null when it cannot be read. */
    public static String subject(String assertion) {
        try {
            return SignedJWT.parse(assertion).getJWTClaimsSet().getSubject();
        } catch (ParseException e) {
            return null;
        }
    }

    /** Whether the set holds a key the assertion's header names (by kid, or any when it names none). */
    public static boolean hasKeyFor(String assertion, JWKSet keys) {
        try {
            return !candidates(SignedJWT.parse(assertion).getHeader(), keys).isEmpty();
        } catch (ParseException e) {
            return true;
        }
    }

    /**
     * The assertion checked for the client; {@code invalid_client} otherwise. {@code registeredAlg}:
     * the client's token_endpoint_auth_signing_alg, or null for any of {@link #ALGORITHMS}.
     */
    public static Checked check(String assertion, String clientId, JWKSet keys, String registeredAlg, String issuer,
            Instant now) {
        SignedJWT jwt;
        JWTClaimsSet claims;
        try {
            jwt = SignedJWT.parse(assertion);
            claims = jwt.getJWTClaimsSet();
        } catch (ParseException e) {
            throw refused("The client assertion is not a signed JWT.");
        }
        String alg = jwt.getHeader().getAlgorithm().getName();
        if (!ALGORITHMS.contains(alg) || (registeredAlg != null && !registeredAlg.equals(alg))) {
            throw refused("The client assertion's algorithm is not one the client may use.");
        }
        if (!verified(jwt, keys)) {
            throw refused("The client assertion's signature is not by a key the client registered.");
        }
        if (!clientId.equals(claims.getIssuer()) || !clientId.equals(claims.getSubject())) {
            throw refused("The client assertion's iss and sub must both be the client_id.");
        }
        Set<String> accepted = new java.util.HashSet<>(List.of(issuer));
        ENDPOINTS.forEach(path -> accepted.add(issuer + path));
        if (claims.getAudience() == null || claims.getAudience().stream().noneMatch(accepted::contains)) {
            throw refused("The client assertion's aud must name this server (" + issuer + ").");
        }
        Date exp = claims.getExpirationTime();
        if (exp == null || exp.toInstant().isBefore(now.minus(SKEW)) || exp.toInstant().isAfter(now.plus(MOST_AHEAD))) {
            throw refused("The client assertion must expire within " + MOST_AHEAD.toMinutes() + " minutes, and not have expired.");
        }
        Date nbf = claims.getNotBeforeTime();
        if (nbf != null && nbf.toInstant().isAfter(now.plus(SKEW))) {
            throw refused("The client assertion is not valid yet.");
        }
        String jti = claims.getJWTID();
        if (jti == null || jti.isBlank() || jti.length() > 200) {
            throw refused("The client assertion needs a jti (of at most 200 characters).");
        }
        return new Checked(jti, exp.toInstant().plus(SKEW));
    }

    /** Whether one of the keys (a public one the header may name) verifies the JWT's signature. */
    public static boolean verified(SignedJWT jwt, JWKSet keys) {
        for (JWK key : candidates(jwt.getHeader(), keys)) {
            try {
                Key publicKey = ((AsymmetricJWK) key).toPublicKey();
                if (jwt.verify(new DefaultJWSVerifierFactory().createJWSVerifier(jwt.getHeader(), publicKey))) {
                    return true;
                }
            } catch (JOSEException | ClassCastException e) {
                // Not a key this algorithm verifies with: the next one.
            }
        }
        return false;
    }

    private static List<JWK> candidates(JWSHeader header, JWKSet keys) {
        return keys.getKeys().stream()
                .filter(k -> k instanceof AsymmetricJWK && !k.isPrivate())
                .filter(k -> header.getKeyID() == null || header.getKeyID().equals(k.getKeyID()))
                .filter(k -> k.getKeyUse() == null || KeyUse.SIGNATURE.equals(k.getKeyUse()))
                .filter(k -> k.getAlgorithm() == null || k.getAlgorithm().equals(header.getAlgorithm()))
                .toList();
    }

    /**
     * A registered key set as the client's metadata carries it: public RSA (2048 bits or more) or EC
     * keys only, at most ten; null when it is none.
     */
    public static String keySetProblem(String json) {
        JWKSet set;
        try {
            set = JWKSet.parse(json);
        } catch (ParseException e) {
            return "is not a JWK set";
        }
        if (set.getKeys().isEmpty() || set.getKeys().size() > 10) {
            return "must hold 1 to 10 keys";
        }
        for (JWK key : set.getKeys()) {
            if (key.isPrivate()) {
                return "must hold public keys only";
            }
            if (key instanceof com.nimbusds.jose.jwk.RSAKey rsa) {
                if (rsa.size() < 2048) {
                    return "RSA keys must have 2048 bits or more";
                }
            } else if (!(key instanceof com.nimbusds.jose.jwk.ECKey)) {
                return "must hold RSA or EC keys";
            }
        }
        return null;
    }

    /** An algorithm a client may register for its assertions. */
    public static boolean knownAlgorithm(String alg) {
        return ALGORITHMS.contains(alg) && JWSAlgorithm.parse(alg) != null;
    }

    private static OAuthException refused(String description) {
        return OAuthException.invalidClient(description);
    }
}
