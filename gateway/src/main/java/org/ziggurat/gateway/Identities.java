package org.ziggurat.gateway;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.oidc.TokenIntrospection;
import io.quarkus.oidc.runtime.OidcUtils;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.ziggurat.platform.token.PlatformTokenSigner;

import java.time.Duration;
import java.util.List;

/**
 * From an access token to the platform token the services trust: RFC 7662 introspection at
 * auth-service through quarkus-oidc (with its bounded cache, so a revoked token stops working
 * within the cache's lifetime), then one RSA signature per access token, reused while fresh.
 */
@ApplicationScoped
public class Identities {

    /** Who the token speaks for; {@code platformToken} is null when no person stands behind it. */
    public record Resolved(String platformToken, String clientId) {
    }

    @Inject
    IdentityProviderManager identities;

    private final PlatformTokenSigner signer;
    private final Cache<String, String> signed;

    @Inject
    public Identities(GatewayConfig config, PlatformTokenSigner signer) {
        this.signer = signer;
        Duration reuse = config.platformTokenReuse();
        Duration cap = Duration.ofSeconds(Math.max(1, signer.lifetimeSeconds() / 2));
        this.signed = Caffeine.newBuilder().maximumSize(100_000)
                .expireAfterWrite(reuse.compareTo(cap) < 0 ? reuse : cap).build();
    }

    /** Fails with an AuthenticationFailedException when the token is not active. */
    public Uni<Resolved> resolve(String accessToken, RoutingContext ctx) {
        return identities.authenticate(HttpSecurityUtils.setRoutingContextAttribute(
                        new TokenAuthenticationRequest(new AccessTokenCredential(accessToken)), ctx))
                .map(identity -> toPlatform(accessToken, identity));
    }

    private Resolved toPlatform(String accessToken, SecurityIdentity identity) {
        TokenIntrospection introspection = identity.getAttribute(OidcUtils.INTROSPECTION_ATTRIBUTE);
        if (introspection == null) {
            throw new io.quarkus.security.AuthenticationFailedException("no introspection result");
        }
        String subject = introspection.getSubject();
        String clientId = introspection.getClientId();
        if (subject == null || !subject.matches("[1-9][0-9]{0,18}") || introspection.getUsername() == null) {
            // A client acting for itself (client_credentials): no person to speak for.
            return new Resolved(null, clientId);
        }
        String platformToken = signed.get(accessToken, t -> signer.signUser(Long.parseLong(subject),
                introspection.getUsername(), introspection.getScopes() == null ? List.of() : introspection.getScopes(),
                clientId));
        return new Resolved(platformToken, clientId);
    }
}
