package org.ziggurat.platform.testing;

import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import org.ziggurat.platform.token.PlatformClaims;
import org.ziggurat.platform.token.PlatformKeys;

import java.nio.file.Path;
import java.security.interfaces.RSAPrivateCrtKey;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Real platform tokens for tests, signed with {@link PlatformTestKeys}: call an endpoint as any
 * user with any scopes, or as another service, exactly as the gateway or that service would.
 * The {@code forged*} and {@code expired*} variants exist to prove the receivers refuse them.
 */
public final class TestTokens {

    public static final String ISSUER = "urn:ziggurat:platform";
    public static final String AUDIENCE = "urn:ziggurat:services";

    private TestTokens() {
    }

    /** A person calling through the gateway; the client id is {@code test-client}. */
    public static String user(long userId, String username, String... scopes) {
        return sign(PlatformTestKeys.GATEWAY, PlatformTestKeys.dir(), userClaims(userId, username, "test-client", scopes));
    }

    /**
     * A person calling through a gateway whose keys are in {@code keysDir} (a stack started
     * elsewhere, as the e2e module's), for calls made straight to one service instance.
     */
    public static String userSignedWith(Path keysDir, long userId, String username, String... scopes) {
        return sign("gateway", keysDir, userClaims(userId, username, "test-client", scopes));
    }

    /** The same person, having signed in with a second factor (acr multi-factor). */
    public static String userWithSecondFactorSignedWith(Path keysDir, long userId, String username, String... scopes) {
        return sign("gateway", keysDir, userClaims(userId, username, "test-client", scopes)
                .claim(PlatformClaims.ACR, PlatformClaims.MULTI_FACTOR));
    }

    /** A person who signed in with a second factor, through the gateway (acr multi-factor). */
    public static String userWithSecondFactor(long userId, String username, String... scopes) {
        return sign(PlatformTestKeys.GATEWAY, PlatformTestKeys.dir(), userClaims(userId, username, "test-client", scopes)
                .claim(PlatformClaims.ACR, PlatformClaims.MULTI_FACTOR));
    }

    /** A service calling for itself, signed with its key in {@code keysDir} (a stack started elsewhere). */
    public static String serviceSignedWith(Path keysDir, String name) {
        return sign(name, keysDir, serviceClaims(name));
    }

    public static String userWithClient(long userId, String username, String clientId, String... scopes) {
        return sign(PlatformTestKeys.GATEWAY, PlatformTestKeys.dir(), userClaims(userId, username, clientId, scopes));
    }

    /** A service calling for itself, signed with its own key. */
    public static String service(String name) {
        return sign(name, PlatformTestKeys.dir(), serviceClaims(name));
    }

    /** A user identity signed by a trusted key that is not the gateway's. */
    public static String userSignedBy(String signer, long userId, String username, String... scopes) {
        return sign(signer, PlatformTestKeys.dir(), userClaims(userId, username, "test-client", scopes));
    }

    /** A service token claiming {@code claimed} but signed by {@code signer}'s key. */
    public static String serviceSignedBy(String signer, String claimed) {
        return sign(signer, PlatformTestKeys.dir(), serviceClaims(claimed));
    }

    /** A user token signed by a key the receivers do not trust, even though its key id says gateway. */
    public static String userSignedByUnknownKey(long userId, String username) {
        RSAPrivateCrtKey key = key(PlatformTestKeys.untrustedDir(), PlatformTestKeys.INTRUDER);
        return userClaims(userId, username, "test-client").jws()
                .keyId(kidOf(PlatformTestKeys.GATEWAY, PlatformTestKeys.dir()))
                .algorithm(SignatureAlgorithm.RS256).sign(key);
    }

    public static String expiredUser(long userId, String username) {
        long past = Instant.now().getEpochSecond() - 600;
        return sign(PlatformTestKeys.GATEWAY, PlatformTestKeys.dir(),
                userClaims(userId, username, "test-client").issuedAt(past - 60).expiresAt(past));
    }

    public static String userForAudience(String audience, long userId, String username) {
        return sign(PlatformTestKeys.GATEWAY, PlatformTestKeys.dir(),
                userClaims(userId, username, "test-client").audience(audience));
    }

    public static String userFromIssuer(String issuer, long userId, String username) {
        return sign(PlatformTestKeys.GATEWAY, PlatformTestKeys.dir(),
                userClaims(userId, username, "test-client").issuer(issuer));
    }

    public static JwtClaimsBuilder userClaims(long userId, String username, String clientId, String... scopes) {
        Set<String> scopeSet = new LinkedHashSet<>(Arrays.asList(scopes));
        JwtClaimsBuilder claims = base().subject(Long.toString(userId)).upn(username).groups(scopeSet)
                .claim(PlatformClaims.SCOPE, String.join(" ", scopeSet));
        return clientId == null ? claims : claims.claim(PlatformClaims.CLIENT_ID, clientId);
    }

    public static JwtClaimsBuilder serviceClaims(String name) {
        return base().subject("service:" + name).upn(name).groups(Set.of(PlatformClaims.SERVICE_GROUP))
                .claim(PlatformClaims.SERVICE, name);
    }

    private static JwtClaimsBuilder base() {
        long now = Instant.now().getEpochSecond();
        return Jwt.claims().issuer(ISSUER).audience(AUDIENCE).issuedAt(now).expiresAt(now + 60);
    }

    private static String sign(String signer, Path dir, JwtClaimsBuilder claims) {
        return claims.jws().keyId(kidOf(signer, dir)).algorithm(SignatureAlgorithm.RS256).sign(key(dir, signer));
    }

    private static String kidOf(String signer, Path dir) {
        try {
            return PlatformKeys.keyId(signer, PlatformKeys.publicKeyOf(key(dir, signer)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static RSAPrivateCrtKey key(Path dir, String signer) {
        try {
            return PlatformKeys.readPrivateKey(dir.resolve(signer + PlatformKeys.PRIVATE_SUFFIX));
        } catch (Exception e) {
            throw new IllegalStateException("No test key for " + signer + " (is PlatformTestKeys active?)", e);
        }
    }
}
