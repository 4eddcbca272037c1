package org.ziggurat.auth.tokens;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.Issuer;
import org.ziggurat.auth.keys.SigningKeys;
import org.ziggurat.auth.oauth.IdTokenClaims;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.Provider;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPrivateKey;
import java.security.spec.RSAPrivateCrtKeySpec;
import java.text.ParseException;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * ID tokens: signed with the application's key series ({@link SigningKeys}), and read back when
 * one is presented as {@code id_token_hint}. An ID token is a JWT, never stored: it is not an
 * access token, and nothing that takes access tokens (which are looked up by their hash) takes it.
 */
@ApplicationScoped
public class IdTokens {

    private final SigningKeys keys;
    private final AuthConfig config;
    private final Map<String, JWSSigner> signers = new ConcurrentHashMap<>();

    IdTokens(SigningKeys keys, AuthConfig config) {
        this.keys = keys;
        this.config = config;
    }

    /** A signed ID token for {@code subject}, bound to {@code accessToken} (at_hash), with the access token's lifetime. */
    public Uni<String> sign(IdTokenClaims.Subject subject, String accessToken, String alg, Instant issuedAt) {
        return sign(subject, accessToken, alg, issuedAt, Map.of());
    }

    /** With {@code more} claims: the research claims that the scopes ask for. */
    public Uni<String> sign(IdTokenClaims.Subject subject, String accessToken, String alg, Instant issuedAt,
            Map<String, Object> more) {
        return sign(JOSEObjectType.JWT, alg, IdTokenClaims.of(subject, accessToken, issuedAt, config.accessTokenLifetime(),
                more));
    }

    /**
     * Any JWT the provider signs, with the key of {@code alg}'s series that signs now, its signer
     * made once per key: ID tokens, and through {@link AccessTokenJwts} access tokens (RFC 9068)
     * and signed introspection answers (RFC 9701).
     */
    public Uni<String> sign(JOSEObjectType type, String alg, JWTClaimsSet claims) {
        return keys.signing(alg).map(key -> {
            JWSSigner signer = signers.computeIfAbsent(key.getKeyID(), kid -> signer(key));
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.parse(alg)).keyID(key.getKeyID())
                    .type(type).build(), claims);
            try {
                jwt.sign(signer);
            } catch (JOSEException e) {
                throw new IllegalStateException("cannot sign a " + type, e);
            }
            return jwt.serialize();
        });
    }

    /**
     * The claims of an ID token that this server signed with a key it still publishes, whether
     * or not it has expired (RP-initiated logout takes expired hints); null for anything else.
     */
    public Uni<JWTClaimsSet> verified(String idToken) {
        SignedJWT jwt;
        try {
            jwt = SignedJWT.parse(idToken);
        } catch (ParseException e) {
            return Uni.createFrom().nullItem();
        }
        String kid = jwt.getHeader().getKeyID();
        return keys.published().map(set -> {
            JWK key = kid == null ? null : set.getKeyByKeyId(kid);
            try {
                if (key == null || !jwt.getHeader().getAlgorithm().equals(key.getAlgorithm()) || !jwt.verify(verifier(key))) {
                    return null;
                }
                JWTClaimsSet claims = jwt.getJWTClaimsSet();
                // Every ID token has an expiry; a signed userinfo answer (same keys, no exp) is no ID token.
                return Issuer.of(config).equals(claims.getIssuer()) && claims.getExpirationTime() != null ? claims : null;
            } catch (JOSEException | ParseException e) {
                return null;
            }
        });
    }

    static JWSSigner signer(JWK key) {
        try {
            if (key instanceof RSAKey rsa) {
                if (NATIVE == null) {
                    return new RSASSASigner(rsa);
                }
                // Translated once: a JDK key is converted on every signature otherwise (550 us, not 213).
                RSASSASigner signer = new RSASSASigner(KeyFactory.getInstance("RSA", NATIVE)
                        .generatePrivate(crtSpec(rsa.toRSAPrivateKey())));
                signer.getJCAContext().setProvider(NATIVE);
                return signer;
            }
            ECDSASigner signer = new ECDSASigner((ECKey) key);
            if (NATIVE != null) {
                signer.getJCAContext().setProvider(NATIVE);
            }
            return signer;
        } catch (JOSEException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot use signing key " + key.getKeyID(), e);
        }
    }

    private static RSAPrivateCrtKeySpec crtSpec(RSAPrivateKey key) throws JOSEException {
        if (!(key instanceof RSAPrivateCrtKey crt)) {
            throw new JOSEException("an RSA signing key without its CRT parameters");
        }
        return new RSAPrivateCrtKeySpec(crt.getModulus(), crt.getPublicExponent(), crt.getPrivateExponent(),
                crt.getPrimeP(), crt.getPrimeQ(), crt.getPrimeExponentP(), crt.getPrimeExponentQ(), crt.getCrtCoefficient());
    }

    /**
     * AWS-LC (Amazon Corretto Crypto Provider), when its native library loads here: RS256 in about
     * 213 us instead of the JDK's 700, ES256 in 24 us instead of 360; signing is most of what
     * openid costs a refresh. Null where it does not load (a native image, another platform):
     * the JDK signs then. Used for ID tokens only, not installed for the whole process.
     */
    static final Provider NATIVE = nativeProvider();

    private static Provider nativeProvider() {
        Logger log = Logger.getLogger(IdTokens.class);
        if (io.quarkus.runtime.ImageMode.current().isNativeImage()) {
            log.info("ID tokens are signed with the JDK's providers (native image)");
            return null;
        }
        try {
            AmazonCorrettoCryptoProvider provider = AmazonCorrettoCryptoProvider.INSTANCE;
            if (provider.getLoadingError() == null) {
                log.info("ID tokens are signed with AWS-LC (Amazon Corretto Crypto Provider)");
                return provider;
            }
            log.infof("ID tokens are signed with the JDK's providers: %s", provider.getLoadingError().toString());
        } catch (Throwable unavailable) {
            // LinkageError and the like: no native library for this platform.
            log.infof("ID tokens are signed with the JDK's providers: %s", unavailable.toString());
        }
        return null;
    }

    private static JWSVerifier verifier(JWK key) throws JOSEException {
        return key instanceof RSAKey rsa ? new RSASSAVerifier(rsa) : new ECDSAVerifier((ECKey) key);
    }
}
