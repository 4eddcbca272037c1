package org.ziggurat.auth.clients;

import org.ziggurat.auth.oauth.OAuthException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.clients.ApplicationRepository;
import org.ziggurat.auth.clients.ApplicationRow;
import org.ziggurat.auth.crypto.TokenCrypto;

/** Client authentication ({@link ClientCredentials}' rules) against the stored applications. */
@ApplicationScoped
public class ClientAuthenticator {

    private final ApplicationRepository applications;
    private final TokenCrypto crypto;

    ClientAuthenticator(ApplicationRepository applications, TokenCrypto crypto) {
        this.applications = applications;
        this.crypto = crypto;
    }

    /** The authenticated application; {@code invalid_client} otherwise. */
    public Uni<ApplicationRow> authenticate(ClientCredentials.Claimed claimed) {
        try {
            ClientCredentials.requireLookup(claimed);
        } catch (OAuthException refused) {
            return Uni.createFrom().failure(refused);
        }
        return applications.byClientId(claimed.clientId()).map(app -> ClientCredentials.proven(claimed, app, crypto::matches));
    }

    /** Confidential clients only (introspection). */
    public Uni<ApplicationRow> authenticateConfidential(ClientCredentials.Claimed claimed) {
        return authenticate(claimed).map(ClientCredentials::confidentialOnly);
    }
}
