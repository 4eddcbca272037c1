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
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;
import org.ziggurat.gateway.GatewayConfig;
import org.ziggurat.platform.token.PlatformTokenSigner;

import java.net.URI;
import java.text.ParseException;
import java.util.HashSet;
import java.util.List;

/**
 * The DPoP proof of every call with a token bound to a key (RFC 9449 §7): checked here with the
 * Nimbus SDK's resource-server verifier (the signature by the key the token is bound to, htm,
 * htu as the caller addressed the public API, iat within {@link #PROOF_WINDOW_SECONDS}, and ath,
 * the token's hash), then, being good, its first use asked of auth-service, which keeps the proofs
 * every gateway replica has seen (a replayed proof is refused by whichever replica it reaches).
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
    private final PlatformTokenSigner signer;
    private final HttpClient authService;
    private final URI authServiceUrl;

    DpopProofs(GatewayConfig config, PlatformTokenSigner signer, Vertx vertx) {
        // The SDK narrows the set it is given to what it supports: a copy of its own.
        this.verifier = new DPoPProtectedResourceRequestVerifier(new HashSet<>(ALGORITHMS), PROOF_WINDOW_SECONDS, null);
        URI base = config.publicBaseUrl();
        this.origin = base.getScheme() + "://" + base.getRawAuthority();
        this.signer = signer;
        this.authServiceUrl = config.upstreams().get("auth-service");
        this.authService = vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout((int) config.connectTimeout().toMillis()).setKeepAlive(true));
    }

    /** A checked proof: its jti and iat; or why it is refused ({@code problem}, the rest null). */
    public record Checked(String jti, Long iat, String problem) {

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
            verifier.verify(method, URI.create(origin + path), new DPoPIssuer(new ClientID(clientId == null ? "-" : clientId)),
                    jwt, new DPoPAccessToken(token), new JWKThumbprintConfirmation(new Base64URL(jkt)), null);
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            return new Checked(claims.getJWTID(), claims.getIssueTime().toInstant().getEpochSecond(), null);
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

    /**
     * Whether no gateway replica has used this proof before (auth-service keeps them): true for a
     * first use, false for a replay; a failure when auth-service cannot say (the call answers 503).
     */
    public Uni<Boolean> firstUse(String jkt, Checked proof) {
        String body = new JsonObject().put("jkt", jkt).put("jti", proof.jti()).put("iat", proof.iat()).encode();
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setHost(authServiceUrl.getHost())
                .setPort(authServiceUrl.getPort()).setURI("/internal/dpop-proofs").setTimeout(3000)
                .putHeader("Content-Type", "application/json").putHeader("X-Platform-Token", signer.cachedServiceToken());
        return Uni.createFrom().completionStage(() -> authService.request(options)
                .compose(request -> request.send(body))
                // The answer read to its end, so that the connection serves the next proof.
                .compose(answer -> answer.body().map(ignored -> answer.statusCode())).map(status -> switch (status) {
                    case 201 -> true;
                    case 409 -> false;
                    default -> throw new IllegalStateException("auth-service answered " + status + " to a DPoP proof");
                }).toCompletionStage());
    }
}
