package org.ziggurat.platform.token;

import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import jakarta.enterprise.context.ApplicationScoped;

import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.interfaces.RSAPrivateCrtKey;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Signs platform tokens with this process's own key: user identities (the gateway, after it
 * validated an access token) and service identities (a service calling another).
 */
@ApplicationScoped
public class PlatformTokenSigner {

    private final PlatformTokenConfig config;

    PlatformTokenSigner(PlatformTokenConfig config) {
        this.config = config;
    }

    private volatile SigningKey key;
    private volatile CachedToken serviceToken;

    private record CachedToken(String value, long renewAtEpochSecond) {
    }

    private record SigningKey(String signer, String keyId, RSAPrivateCrtKey privateKey) {
    }

    /**
     * A token stating that this user calls, through this OAuth client, with these scopes, having
     * signed in as {@code acr} says (null: not known).
     */
    public String signUser(long userId, String username, Collection<String> scopes, String clientId, String acr) {
        Set<String> scopeSet = new LinkedHashSet<>(scopes);
        JwtClaimsBuilder claims = base()
                .subject(Long.toString(userId))
                .upn(username)
                .groups(scopeSet)
                .claim(PlatformClaims.SCOPE, String.join(" ", scopeSet));
        if (clientId != null) {
            claims.claim(PlatformClaims.CLIENT_ID, clientId);
        }
        if (acr != null) {
            claims.claim(PlatformClaims.ACR, acr);
        }
        return sign(claims);
    }

    /** A token stating that this service itself calls. */
    public String signService() {
        String signer = signingKey().signer();
        return sign(base()
                .subject("service:" + signer)
                .upn(signer)
                .groups(Set.of(PlatformClaims.SERVICE_GROUP))
                .claim(PlatformClaims.SERVICE, signer));
    }

    /**
     * This service's own token, signed again once half its lifetime has passed: an RSA signature
     * per outgoing call would cost more than the call.
     */
    public String cachedServiceToken() {
        long now = Instant.now().getEpochSecond();
        CachedToken cached = serviceToken;
        if (cached == null || now >= cached.renewAtEpochSecond()) {
            cached = new CachedToken(signService(), now + Math.max(1, lifetimeSeconds() / 2));
            serviceToken = cached;
        }
        return cached.value();
    }

    /**
     * Reads the signing key again at the next signature. For a process that has just installed a
     * faster security provider (the gateway's AWS-LC): the key is then that provider's own, not a
     * JDK key it would convert at every signature.
     */
    public void reloadKey() {
        key = null;
    }

    public long lifetimeSeconds() {
        return config.lifetime().toSeconds();
    }

    private JwtClaimsBuilder base() {
        long now = Instant.now().getEpochSecond();
        return Jwt.claims()
                .issuer(config.issuer())
                .audience(config.audience())
                .issuedAt(now)
                .expiresAt(now + lifetimeSeconds());
    }

    private String sign(JwtClaimsBuilder claims) {
        SigningKey k = signingKey();
        return claims.jws().keyId(k.keyId()).algorithm(SignatureAlgorithm.RS256).sign(k.privateKey());
    }

    private SigningKey signingKey() {
        SigningKey k = key;
        if (k == null) {
            synchronized (this) {
                if (key == null) {
                    key = load();
                }
                k = key;
            }
        }
        return k;
    }

    private SigningKey load() {
        String signer = config.signer().orElseThrow(() -> new IllegalStateException(
                "ziggurat.platform-token.signer is not set: this process cannot sign platform tokens"));
        String location = config.signingKey().orElseThrow(() -> new IllegalStateException(
                "ziggurat.platform-token.signing-key is not set: this process cannot sign platform tokens"));
        try {
            RSAPrivateCrtKey privateKey = PlatformKeys.readPrivateKey(Path.of(location));
            return new SigningKey(signer, PlatformKeys.keyId(signer, PlatformKeys.publicKeyOf(privateKey)), privateKey);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("Cannot read the platform signing key " + location, e);
        }
    }
}
