package org.ziggurat.auth.dpop;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.dpop.JWKThumbprintConfirmation;
import com.nimbusds.oauth2.sdk.dpop.verifiers.DPoPIssuer;
import com.nimbusds.oauth2.sdk.dpop.verifiers.AccessTokenValidationException;
import com.nimbusds.oauth2.sdk.dpop.verifiers.DPoPProtectedResourceRequestVerifier;
import com.nimbusds.oauth2.sdk.dpop.verifiers.DPoPTokenRequestVerifier;
import com.nimbusds.oauth2.sdk.token.DPoPAccessToken;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.oauth2.sdk.dpop.verifiers.InvalidDPoPProofException;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.openid.connect.sdk.Nonce;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.Issuer;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;

import java.net.URI;
import java.text.ParseException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Base64;
import java.util.Set;

/**
 * DPoP proofs of token requests (RFC 9449 §4.3, §5), checked by the Nimbus SDK's verifier: the
 * signature with the proof's own public key (asymmetric algorithms only), {@code typ}, {@code htm},
 * {@code htu} (this server's token endpoint as clients see it), {@code iat} within
 * {@code ziggurat.auth.dpop.proof-window}. Two things the SDK keeps in one process are kept for
 * every replica: a proof is good once (its key's thumbprint and jti, in {@code dpop_proof_used},
 * whichever replica saw it first), and a nonce (§8) is made under the platform's HMAC key, so that
 * any replica takes what another made.
 */
@ApplicationScoped
public class DpopProofs {

    /** The algorithms a proof may be signed with: asymmetric ones, as the SDK supports them. */
    public static final Set<JWSAlgorithm> ALGORITHMS = Set.of(JWSAlgorithm.ES256, JWSAlgorithm.ES384, JWSAlgorithm.ES512,
            JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512, JWSAlgorithm.PS256, JWSAlgorithm.PS384,
            JWSAlgorithm.PS512);
    /** A proof larger than this is not read. */
    static final int MAX_PROOF = 4096;

    private final Pool pool;
    private final TokenCrypto crypto;
    private final AuthConfig config;
    private final DPoPTokenRequestVerifier verifier;
    private final DPoPProtectedResourceRequestVerifier resourceVerifier;
    private final Callers callers;

    DpopProofs(Pool pool, TokenCrypto crypto, AuthConfig config, Callers callers) {
        this.callers = callers;
        this.pool = pool;
        this.crypto = crypto;
        this.config = config;
        // The SDK narrows the set it is given to what it supports: a copy of its own.
        this.verifier = new DPoPTokenRequestVerifier(new java.util.HashSet<>(ALGORITHMS), URI.create(Issuer.of(config) + "/oauth/token"),
                config.dpop().proofWindow().toSeconds(), null);
        this.resourceVerifier = new DPoPProtectedResourceRequestVerifier(new java.util.HashSet<>(ALGORITHMS),
                config.dpop().proofWindow().toSeconds(), null);
    }

    /**
     * The thumbprint (RFC 7638, base64url) of the key that signed the token request's proof, once
     * the proof is checked and seen for the first time; null when the request carries none.
     * {@code invalid_dpop_proof} for a bad or replayed proof, {@code use_dpop_nonce} (with a fresh
     * nonce) for a missing or stale nonce where one is required or given.
     */
    public Uni<String> tokenRequest(String proof, String clientIdOrNull) {
        if (proof == null) {
            return Uni.createFrom().nullItem();
        }
        if (proof.length() > MAX_PROOF || proof.contains(",")) {
            return Uni.createFrom().failure(invalid("The DPoP header must be one proof."));
        }
        SignedJWT jwt;
        String nonce;
        try {
            jwt = SignedJWT.parse(proof);
            nonce = jwt.getJWTClaimsSet().getStringClaim("nonce");
        } catch (ParseException e) {
            return Uni.createFrom().failure(invalid("The DPoP proof is not a signed JWT."));
        }
        if (nonce == null ? config.dpop().requireNonce() : !nonceIsGood(nonce, Instant.now())) {
            return Uni.createFrom().failure(new OAuthException(OAuthError.USE_DPOP_NONCE,
                    "The DPoP proof must carry the nonce of the DPoP-Nonce header.").withDpopNonce(newNonce()));
        }
        JWKThumbprintConfirmation confirmation;
        try {
            confirmation = verifier.verify(new DPoPIssuer(new ClientID(clientIdOrNull == null ? "-" : clientIdOrNull)), jwt,
                    nonce == null ? null : new Nonce(nonce));
        } catch (InvalidDPoPProofException e) {
            return Uni.createFrom().failure(invalid("The DPoP proof is not valid: " + e.getMessage()));
        } catch (JOSEException e) {
            return Uni.createFrom().failure(invalid("The DPoP proof's signature cannot be checked."));
        }
        String jkt = confirmation.getValue().toString();
        String jti;
        Instant iat;
        try {
            jti = jwt.getJWTClaimsSet().getJWTID();
            iat = jwt.getJWTClaimsSet().getIssueTime().toInstant();
        } catch (ParseException e) {
            return Uni.createFrom().failure(invalid("The DPoP proof is not valid."));
        }
        return firstUse(jkt, jti, iat).map(first -> {
            if (!first) {
                throw invalid("The DPoP proof was used already: each request needs a new one.");
            }
            return jkt;
        });
    }

    /**
     * The proof of a call to one of auth-service's own protected resources (userinfo) with a
     * DPoP-bound token (RFC 9449 §7.1): signed by the token's key ({@code jkt}), for this method
     * and endpoint ({@code path} under the issuer), with the token's hash, fresh, and seen for the
     * first time by any replica. A failure with {@code invalid_dpop_proof} (401) otherwise.
     */
    public Uni<Void> resourceRequest(String method, String path, String proof, String token, String jkt, String clientId) {
        if (proof == null || proof.length() > MAX_PROOF || proof.contains(",")) {
            return Uni.createFrom().failure(refused("The call must carry one DPoP proof of the token's key."));
        }
        SignedJWT jwt;
        try {
            jwt = SignedJWT.parse(proof);
            resourceVerifier.verify(method, URI.create(Issuer.of(config) + path),
                    new DPoPIssuer(new ClientID(clientIdOrDash(clientId))), jwt, new DPoPAccessToken(token),
                    new JWKThumbprintConfirmation(new Base64URL(jkt)), null);
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            return firstUse("api:" + jkt, claims.getJWTID(), claims.getIssueTime().toInstant()).map(first -> {
                if (!first) {
                    throw refused("The DPoP proof was used already: each call needs a new one.");
                }
                return null;
            });
        } catch (ParseException e) {
            return Uni.createFrom().failure(refused("The DPoP proof is not a signed JWT."));
        } catch (InvalidDPoPProofException | AccessTokenValidationException e) {
            return Uni.createFrom().failure(refused("The DPoP proof is not valid: " + e.getMessage()));
        } catch (JOSEException e) {
            return Uni.createFrom().failure(refused("The DPoP proof's signature cannot be checked."));
        }
    }

    private static String clientIdOrDash(String clientId) {
        return clientId == null ? "-" : clientId;
    }

    static OAuthException refused(String description) {
        return new OAuthException(OAuthError.DPOP_PROOF_REFUSED, description);
    }

    /** A proof a resource server (the gateway) checked: its key's thumbprint, its jti and iat (epoch seconds). */
    @io.quarkus.runtime.annotations.RegisterForReflection
    public record SeenProof(String jkt, String jti, Long iat) {
    }

    /**
     * The gateway's question for a proof it checked (RFC 9449 §11.1): true when no replica of it
     * has seen that proof before. Only the gateway (a service token) may ask.
     */
    public Uni<Boolean> firstUseAtResourceServer(SeenProof proof) {
        return callers.current().chain(caller -> {
            String service = caller.requireService();
            if (!"gateway".equals(service)) {
                throw ProblemException.forbidden("Only the gateway records the DPoP proofs of API calls.");
            }
            if (proof == null || proof.jkt() == null || !proof.jkt().matches("[A-Za-z0-9_-]{43}")) {
                throw ProblemException.invalidField("jkt", "must be a JWK SHA-256 thumbprint");
            }
            if (proof.jti() == null || proof.jti().isEmpty() || proof.jti().length() > 256) {
                throw ProblemException.invalidField("jti", "must be 1 to 256 characters");
            }
            if (proof.iat() == null || Math.abs(proof.iat() - Instant.now().getEpochSecond())
                    > config.dpop().proofWindow().toSeconds() + 5) {
                throw ProblemException.invalidField("iat", "must be within the proof window of now");
            }
            // Apart from the token endpoint's: a proof for an API call is another proof, with its own htu.
            return firstUse("api:" + proof.jkt(), proof.jti(), Instant.ofEpochSecond(proof.iat()));
        });
    }

    /**
     * Whether this is the proof's first use, on any replica: kept until it could no longer pass the
     * iat check, then purged with the expired tokens.
     */
    Uni<Boolean> firstUse(String jkt, String jti, Instant iat) {
        OffsetDateTime keep = OffsetDateTime.ofInstant(iat.plus(config.dpop().proofWindow()).plusSeconds(5), ZoneOffset.UTC);
        return pool.preparedQuery("INSERT INTO dpop_proof_used (proof_hash, expires_at) VALUES ($1, $2) "
                        + "ON CONFLICT (proof_hash) DO NOTHING")
                .execute(Tuple.of(Buffer.buffer(crypto.hash("dpop:" + jkt + ":" + jti)), keep))
                .map(rows -> rows.rowCount() == 1);
    }

    /** A nonce any replica takes for {@code nonce-lifetime}: when it was made, and a keyed hash of that. */
    public String newNonce() {
        return newNonce(Instant.now());
    }

    String newNonce(Instant at) {
        String made = Long.toString(at.getEpochSecond());
        return made + "." + mac(made);
    }

    boolean nonceIsGood(String nonce, Instant now) {
        int dot = nonce.indexOf('.');
        if (dot <= 0 || dot > 12 || !nonce.substring(0, dot).chars().allMatch(Character::isDigit)) {
            return false;
        }
        String made = nonce.substring(0, dot);
        long at = Long.parseLong(made);
        long age = now.getEpochSecond() - at;
        return age >= -5 && age <= config.dpop().nonceLifetime().toSeconds()
                && TokenCrypto.sameValue(mac(made), nonce.substring(dot + 1));
    }

    private String mac(String made) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(crypto.hash("dpop-nonce:" + made), 18));
    }

    static OAuthException invalid(String description) {
        return new OAuthException(OAuthError.INVALID_DPOP_PROOF, description);
    }
}
