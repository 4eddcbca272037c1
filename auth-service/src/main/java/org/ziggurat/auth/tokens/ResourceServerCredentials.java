package org.ziggurat.auth.tokens;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.clients.ClientCredentials;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.oauth.OAuthException;

/**
 * A registered resource server's own credential (client_secret_basic or client_secret_post), good
 * at the introspection endpoint alone: it is no application, so the token endpoint, which looks
 * for one, never finds it.
 *
 * <p>The credential is read from the registry's snapshot only while the registry hears every
 * change ({@link ResourceServerRegistry#listening}); otherwise from the table, as a cache of the
 * platform's is not read while its LISTEN connection is unproven. The snapshot of a replica that
 * does not listen may be seconds old, or older while its reads fail, and a secret just replaced,
 * or a resource server just removed, must stop working on every replica at once.
 */
@ApplicationScoped
public class ResourceServerCredentials {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final ResourceServers resources;
    private final TokenCrypto crypto;
    private final ResourceServerRegistry registry;
    private final ResourceServerRepository repository;

    ResourceServerCredentials(ResourceServers resources, TokenCrypto crypto, ResourceServerRegistry registry,
            ResourceServerRepository repository) {
        this.resources = resources;
        this.crypto = crypto;
        this.registry = registry;
        this.repository = repository;
    }

    /**
     * The resource server whose credential {@code claimed} proves; null when the claimed client_id
     * is no resource server's (an application's, then); {@code invalid_client} when it is one's
     * and the secret is wrong or missing.
     */
    public Uni<ResourceServers.Credential> authenticate(ClientCredentials.Claimed claimed) {
        String clientId = claimed == null ? null : claimed.clientId();
        if (clientId == null || !clientId.startsWith(ResourceServerAdministration.CLIENT_ID_PREFIX)) {
            return Uni.createFrom().nullItem();
        }
        Uni<ResourceServers.Credential> found = registry.listening() ? Uni.createFrom().item(resources.credential(clientId))
                : repository.byClientId(clientId).map(row -> row == null || resources.configured(row.identifier()) ? null
                        : new ResourceServers.Credential(row.clientId(), row.secretHash(), row.identifier()));
        return found.map(credential -> credential == null ? null : proven(claimed, credential));
    }

    private ResourceServers.Credential proven(ClientCredentials.Claimed claimed, ResourceServers.Credential credential) {
        if (claimed.assertion() != null || !crypto.matches(claimed.secret(), credential.secretHash())) {
            EVENTS.infof("event=client_authentication_failed client_id=%s reason=%s", credential.clientId(),
                    claimed.assertion() != null ? "method" : "secret");
            throw OAuthException.invalidClient("Client authentication failed.");
        }
        return credential;
    }
}
