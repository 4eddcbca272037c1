package org.ziggurat.platform.token;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.jwt.JsonWebToken;

import java.io.IOException;
import java.util.Base64;

/**
 * What a valid signature alone does not prove. SmallRye JWT has checked signature, issuer,
 * audience and expiry against the trusted JWKS; here the signer must also have the right to say
 * what the token says: only the gateway's key may state a user identity, and a service token
 * must name the service whose key signed it.
 */
@ApplicationScoped
public class PlatformIdentityRules implements SecurityIdentityAugmentor {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final PlatformTokenConfig config;

    PlatformIdentityRules(PlatformTokenConfig config) {
        this.config = config;
    }

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (identity.isAnonymous() || !(identity.getPrincipal() instanceof JsonWebToken token)) {
            return Uni.createFrom().item(identity);
        }
        // Not a platform token: at the gateway, a caller's JWT access token (RFC 9068) that
        // quarkus-oidc introspected, whose principal is that JWT. Nothing here speaks of it; a
        // service takes platform tokens only, whose issuer SmallRye JWT has checked.
        if (!config.issuer().equals(token.getIssuer())) {
            return Uni.createFrom().item(identity);
        }
        String refusal = refusal(token);
        return refusal == null
                ? Uni.createFrom().item(identity)
                : Uni.createFrom().failure(new AuthenticationFailedException(refusal));
    }

    /** Why this verified token may not be believed, or null when it may. */
    String refusal(JsonWebToken token) {
        return refusal(token, config.userSigner());
    }

    /**
     * The rule itself, for a verified token, with the name of the one signer that may state a
     * user ({@code userSigner}); also what the tests' doubles of a service's internal API apply.
     */
    public static String refusal(JsonWebToken token, String userSigner) {
        String signer = PlatformKeys.signerOf(keyId(token.getRawToken()));
        if (signer == null) {
            return "platform token without a signer key id";
        }
        String service = token.getClaim(PlatformClaims.SERVICE);
        if (service != null) {
            return service.equals(signer) ? null : "service token signed by another signer";
        }
        if (!userSigner.equals(signer)) {
            return "user identity not signed by the gateway";
        }
        String subject = token.getSubject();
        return subject != null && subject.matches("[1-9][0-9]{0,18}") ? null : "user identity without a user id";
    }

    private static String keyId(String rawToken) {
        int dot = rawToken == null ? -1 : rawToken.indexOf('.');
        if (dot <= 0) {
            return null;
        }
        try {
            JsonNode header = JSON.readTree(Base64.getUrlDecoder().decode(rawToken.substring(0, dot)));
            JsonNode kid = header.get("kid");
            return kid != null && kid.isTextual() ? kid.asText() : null;
        } catch (IllegalArgumentException | IOException e) {
            return null;
        }
    }
}
