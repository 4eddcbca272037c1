package org.ziggurat.auth.clients;

import org.ziggurat.auth.oauth.OAuthException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.clients.ApplicationRepository;
import org.ziggurat.auth.clients.ApplicationRow;
import org.ziggurat.auth.crypto.TokenCrypto;

/**
 * Client authentication ({@link ClientCredentials}' rules) against the stored applications; for a
 * client registered with private_key_jwt, its assertion ({@link ClientAssertionVerifier}).
 */
@ApplicationScoped
public class ClientAuthenticator {

    private final ApplicationRepository applications;
    private final TokenCrypto crypto;
    private final ClientAssertionVerifier assertions;

    ClientAuthenticator(ApplicationRepository applications, TokenCrypto crypto, ClientAssertionVerifier assertions) {
        this.applications = applications;
        this.crypto = crypto;
        this.assertions = assertions;
    }

    /** The authenticated application; {@code invalid_client} otherwise. */
    public Uni<ApplicationRow> authenticate(ClientCredentials.Claimed claimed) {
        try {
            ClientCredentials.requireLookup(claimed);
        } catch (OAuthException refused) {
            return Uni.createFrom().failure(refused);
        }
        // A client this replica keeps (most calls) and that proves itself with its secret is checked
        // in one step: each Mutiny step captures and restores the request's context.
        ApplicationRow kept = applications.kept(claimed.clientId());
        if (kept != null && !RegisteredKeys.of(kept).authenticates()) {
            return Uni.createFrom().item(() -> ClientCredentials.proven(claimed, kept, crypto::matches));
        }
        return applications.byClientId(claimed.clientId()).chain(app -> proven(claimed, app));
    }

    /** A client registered with private_key_jwt proves itself that way only (its registered method). */
    private Uni<ApplicationRow> proven(ClientCredentials.Claimed claimed, ApplicationRow app) {
        return app != null && RegisteredKeys.of(app).authenticates()
                ? assertions.verify(app, claimed.assertion())
                : Uni.createFrom().item(() -> ClientCredentials.proven(claimed, app, crypto::matches));
    }

    /** Confidential clients only (introspection). */
    public Uni<ApplicationRow> authenticateConfidential(ClientCredentials.Claimed claimed) {
        return authenticate(claimed).map(ClientCredentials::confidentialOnly);
    }
}
