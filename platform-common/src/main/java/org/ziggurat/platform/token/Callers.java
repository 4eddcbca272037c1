package org.ziggurat.platform.token;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * The caller of the current request. Authentication is lazy (the platform token is verified only
 * when an endpoint asks), so the identity is obtained without blocking the event loop.
 */
@ApplicationScoped
public class Callers {

    private final CurrentIdentityAssociation identities;

    Callers(CurrentIdentityAssociation identities) {
        this.identities = identities;
    }

    /**
     * Callers by verified token object, which {@link VerifiedPlatformTokens} hands out again for
     * every request with the same platform token (keys compared by identity, dropped with the
     * token). Reading a claim of ours (scope, client_id, svc) costs smallrye-jwt an exception:
     * JWTCallerPrincipal.getClaimType tries Claims.valueOf and catches. Three a request were a
     * seventh of directory-service's CPU under GET /user.
     */
    private final Cache<JsonWebToken, Caller> byToken = Caffeine.newBuilder().weakKeys().maximumSize(20_000)
            .executor(Runnable::run).build();

    public Uni<Caller> current() {
        return identities.getDeferredIdentity().map(this::of);
    }

    public Caller of(SecurityIdentity identity) {
        if (identity != null && !identity.isAnonymous() && identity.getPrincipal() instanceof JsonWebToken token) {
            return byToken.get(token, t -> Caller.of(identity));
        }
        return Caller.of(identity);
    }

    /** The calling service's name; fails with 401/403 for anyone else (internal endpoints). */
    public Uni<String> service() {
        return current().map(Caller::requireService);
    }
}
