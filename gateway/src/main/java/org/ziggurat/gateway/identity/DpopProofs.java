package org.ziggurat.gateway.identity;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.dpop.JWKThumbprintConfirmation;
import com.nimbusds.oauth2.sdk.dpop.verifiers.AccessTokenValidationException;
import com.nimbusds.oauth2.sdk.dpop.verifiers.DPoPIssuer;
import com.nimbusds.oauth2.sdk.dpop.verifiers.DPoPProtectedResourceRequestVerifier;
import com.nimbusds.oauth2.sdk.dpop.verifiers.InvalidDPoPProofException;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.token.DPoPAccessToken;
import com.nimbusds.openid.connect.sdk.Nonce;
import jakarta.inject.Singleton;
import org.ziggurat.gateway.GatewayConfig;

import java.net.URI;
import java.text.ParseException;
import java.util.HashSet;
import java.util.List;

/**
 * The DPoP proof of every call with a token bound to a key (RFC 9449 §7): checked here with the
 * Nimbus SDK's resource-server verifier (the signature by the key the token is bound to, htm,
 * htu as the caller addressed the public API, iat within {@link #PROOF_WINDOW_SECONDS}, and ath,
 * the token's hash). Its nonce, and whether it is used for the first time, are {@link DpopNonces}'
 * and {@link DpopPeers}' (a replayed proof is refused by whichever replica it reaches).
 */
@Singleton
public class DpopProofs {

    /** How far a proof's iat may be from now, either way. */
    static final long PROOF_WINDOW_SECONDS = 60;
    static final int MAX_PROOF = 4096;
    static final List<JWSAlgorithm> ALGORITHMS = List.of(JWSAlgorithm.ES256, JWSAlgorithm.ES384, JWSAlgorithm.ES512,
            JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512, JWSAlgorithm.PS256, JWSAlgorithm.PS384,
            JWSAlgorithm.PS512);
    /** The algorithms by name, as the protected resource metadata lists them. */
    public static final List<String> ALGORITHM_NAME_LIST = ALGORITHMS.stream().map(JWSAlgorithm::getName).toList();
    /** The algorithms as the DPoP challenge names them. */
    public static final String ALGORITHM_NAMES = String.join(" ", ALGORITHM_NAME_LIST);

    private final DPoPProtectedResourceRequestVerifier verifier;
    private final String origin;

    DpopProofs(GatewayConfig config) {
        // The SDK narrows the set it is given to what it supports: a copy of its own.
        this.verifier = new DPoPProtectedResourceRequestVerifier(new HashSet<>(ALGORITHMS), PROOF_WINDOW_SECONDS, null);
        URI base = config.publicBaseUrl();
        this.origin = base.getScheme() + "://" + base.getRawAuthority();
    }

    /** A checked proof: its jti and nonce (null when it has none); or why it is refused ({@code problem}, the rest null). */
    public record Checked(String jti, String nonce, String problem) {

        static Checked refused(String problem) {
            return new Checked(null, null, problem);
        }
    }

    /**
     * The proof ({@code proof}: the DPoP header, null when absent) of a call with {@code method} to
     * {@code path} (as the gateway received it, under the public base URL's origin) carrying
     * {@code token}, bound to the key of thumbprint {@code jkt}.
     */
    public Checked check(String method, String path, String proof, String token, String jkt, String clientId) {
        if (proof == null || proof.isEmpty()) {
            return Checked.refused("This access token is bound to a key (DPoP): the call must carry its proof.");
        }
        if (proof.length() > MAX_PROOF || proof.contains(",")) {
            return Checked.refused("The DPoP header must be one proof.");
        }
        try {
            SignedJWT jwt = SignedJWT.parse(proof);
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            if (claims.getClaim("nonce") != null && !(claims.getClaim("nonce") instanceof String)) {
                return Checked.refused("The DPoP proof's nonce must be a string.");
            }
            // The SDK refuses a nonce it was not told to expect; whether the nonce is good is DpopNonces'.
            String nonce = (String) claims.getClaim("nonce");
            verifier.verify(method, URI.create(origin + path), new DPoPIssuer(new ClientID(clientId == null ? "-" : clientId)),
                    jwt, new DPoPAccessToken(token), new JWKThumbprintConfirmation(new Base64URL(jkt)),
                    nonce == null ? null : new Nonce(nonce));
            return new Checked(claims.getJWTID(), nonce, null);
        } catch (ParseException e) {
            return Checked.refused("The DPoP proof is not a signed JWT.");
        } catch (InvalidDPoPProofException e) {
            return Checked.refused("The DPoP proof is not valid: " + e.getMessage());
        } catch (AccessTokenValidationException e) {
            return Checked.refused("The DPoP proof is for another token or key: " + e.getMessage());
        } catch (JOSEException | IllegalArgumentException e) {
            return Checked.refused("The DPoP proof cannot be checked.");
        }
    }
}
