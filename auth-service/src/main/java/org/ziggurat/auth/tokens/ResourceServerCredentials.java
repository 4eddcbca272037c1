package org.ziggurat.auth.tokens;

import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.clients.ClientCredentials;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.oauth.OAuthException;

/**
 * A registered resource server's own credential (client_secret_basic or client_secret_post), good
 * at the introspection endpoint alone: it is no application, so the token endpoint, which looks
 * for one, never finds it.
 */
@ApplicationScoped
public class ResourceServerCredentials {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final ResourceServers resources;
    private final TokenCrypto crypto;

    ResourceServerCredentials(ResourceServers resources, TokenCrypto crypto) {
        this.resources = resources;
        this.crypto = crypto;
    }

    /**
     * The resource server whose credential {@code claimed} proves; null when the claimed client_id
     * is no resource server's (an application's, then); {@code invalid_client} when it is one's
     * and the secret is wrong or missing.
     */
    public ResourceServers.Credential authenticate(ClientCredentials.Claimed claimed) {
        ResourceServers.Credential credential = claimed == null ? null : resources.credential(claimed.clientId());
        if (credential == null) {
            return null;
        }
        if (claimed.assertion() != null || !crypto.matches(claimed.secret(), credential.secretHash())) {
            EVENTS.infof("event=client_authentication_failed client_id=%s reason=%s", credential.clientId(),
                    claimed.assertion() != null ? "method" : "secret");
            throw OAuthException.invalidClient("Client authentication failed.");
        }
        return credential;
    }
}
