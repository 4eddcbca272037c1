package org.ziggurat.auth.tokens;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jwt.JWTClaimsSet;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.Issuer;
import org.ziggurat.auth.clients.ApplicationRepository;
import org.ziggurat.auth.clients.RelyingPartyMetadata;

import java.util.Map;

/**
 * Userinfo signed (OpenID Connect Core §5.3.2) for a client that registered
 * {@code userinfo_signed_response_alg}: a JWT from this issuer to that client, signed with the key
 * of that algorithm that signs ID tokens. Every other client reads JSON.
 */
@ApplicationScoped
public class SignedUserInfo {

    private final ApplicationRepository applications;
    private final IdTokens idTokens;
    private final AuthConfig config;

    SignedUserInfo(ApplicationRepository applications, IdTokens idTokens, AuthConfig config) {
        this.applications = applications;
        this.idTokens = idTokens;
        this.config = config;
    }

    /** The signed answer for the token's client; null when the client reads JSON. */
    public Uni<String> forClient(String clientId, Map<String, Object> claims) {
        if (clientId == null) {
            return Uni.createFrom().nullItem();
        }
        return applications.byClientId(clientId).chain(app -> {
            String alg = app == null ? null : RelyingPartyMetadata.of(app).userinfoAlg();
            if (alg == null) {
                return Uni.createFrom().nullItem();
            }
            JWTClaimsSet.Builder signed = new JWTClaimsSet.Builder();
            claims.forEach(signed::claim);
            signed.issuer(Issuer.of(config)).audience(app.clientId());
            return idTokens.sign(JOSEObjectType.JWT, alg, signed.build());
        });
    }
}
