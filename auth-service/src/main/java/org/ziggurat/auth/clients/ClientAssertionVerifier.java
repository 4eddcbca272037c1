package org.ziggurat.auth.clients;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.oauth.OAuthException;

import java.time.Instant;

/**
 * A client that registered private_key_jwt proves itself with an assertion ({@link ClientAssertions})
 * signed by one of its registered keys ({@link ClientKeys}), good once on every replica.
 */
@ApplicationScoped
public class ClientAssertionVerifier {

    private static final Logger LOG = Logger.getLogger("org.ziggurat.auth.security");

    private final ClientKeys keys;
    private final ClientAssertionRepository used;
    private final String issuer;

    ClientAssertionVerifier(ClientKeys keys, ClientAssertionRepository used, AuthConfig config) {
        this.keys = keys;
        this.used = used;
        this.issuer = config.issuer();
    }

    /** The application once its assertion is checked and used; {@code invalid_client} otherwise. */
    public Uni<ApplicationRow> verify(ApplicationRow app, String assertion) {
        if (assertion == null) {
            LOG.infof("event=client_authentication_failed client_id=%s reason=method", app.clientId());
            return Uni.createFrom().failure(OAuthException.invalidClient("This client authenticates with a signed JWT "
                    + "(private_key_jwt): client_assertion_type and client_assertion."));
        }
        RegisteredKeys registered = RegisteredKeys.of(app);
        return keys.forJwt(registered, assertion)
                .map(set -> ClientAssertions.check(assertion, app.clientId(), set, registered.signingAlg(), issuer, Instant.now()))
                .chain(checked -> used.firstUse(app.clientId(), checked.jti(), checked.expiresAt()))
                .map(first -> {
                    if (!first) {
                        throw OAuthException.invalidClient("This client assertion was used before: each is good once.");
                    }
                    return app;
                })
                .onFailure(OAuthException.class).invoke(e -> LOG.infof("event=client_authentication_failed client_id=%s "
                        + "reason=assertion detail=\"%s\"", app.clientId(), e.getMessage()));
    }
}
