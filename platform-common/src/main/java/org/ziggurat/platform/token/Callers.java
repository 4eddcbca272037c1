package org.ziggurat.platform.token;

import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The caller of the current request. Authentication is lazy (the platform token is verified only
 * when an endpoint asks), so the identity is obtained without blocking the event loop.
 */
@ApplicationScoped
public class Callers {

    @Inject
    CurrentIdentityAssociation identities;

    public Uni<Caller> current() {
        return identities.getDeferredIdentity().map(Caller::of);
    }

    /** The calling service's name; fails with 401/403 for anyone else (internal endpoints). */
    public Uni<String> service() {
        return current().map(Caller::requireService);
    }
}
