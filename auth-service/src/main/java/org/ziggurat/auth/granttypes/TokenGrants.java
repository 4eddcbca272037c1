package org.ziggurat.auth.granttypes;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import org.ziggurat.auth.clients.ApplicationRow;
import org.ziggurat.auth.clients.ClientAuthenticator;
import org.ziggurat.auth.clients.ClientCredentials;
import org.ziggurat.auth.clients.ClientMetadata;
import org.ziggurat.auth.oauth.GrantTypes;
import org.ziggurat.auth.oauth.IssuedTokens;
import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.OAuthForm;

import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The token endpoint's grants, by {@code grant_type}: the one place that authenticates the client
 * of a grant and checks that it may use it; each {@link TokenGrant} does the rest.
 */
@ApplicationScoped
public class TokenGrants {

    private final Map<String, TokenGrant> byType;
    private final ClientAuthenticator clients;

    TokenGrants(Instance<TokenGrant> grants, ClientAuthenticator clients) {
        this.byType = grants.stream().collect(Collectors.toUnmodifiableMap(TokenGrant::grantType, Function.identity()));
        this.clients = clients;
        // The metadata (grant_types_supported) and registration list GrantTypes.SUPPORTED: it must say what is served.
        if (!byType.keySet().equals(Set.copyOf(GrantTypes.SUPPORTED))) {
            throw new IllegalStateException("grant handlers " + byType.keySet() + " are not GrantTypes.SUPPORTED "
                    + GrantTypes.SUPPORTED);
        }
    }

    /** A token request: the grant's parameters first, then its client, then the grant's own rules. */
    public Uni<IssuedTokens> issue(OAuthForm form, String authorization, String callerAddress) {
        String grantType = form.require("grant_type");
        ClientCredentials.Claimed claimed = ClientCredentials.claimed(authorization, form);
        TokenGrant grant = byType.get(grantType);
        if (grant == null) {
            throw new OAuthException(OAuthError.UNSUPPORTED_GRANT_TYPE,
                    "Supported grant types: " + String.join(", ", GrantTypes.SUPPORTED) + ".");
        }
        TokenGrant.Issuing issuing = grant.read(form, callerAddress);
        Uni<ApplicationRow> client = claimed == null && grant.clientOptional() ? Uni.createFrom().nullItem()
                : authenticatedFor(claimed, grantType);
        return client.chain(issuing::forClient);
    }

    /** The authenticated client, when it may use the grant (a registered client only those it registered). */
    public Uni<ApplicationRow> authenticatedFor(ClientCredentials.Claimed claimed, String grantType) {
        return clients.authenticate(claimed).invoke(app -> {
            if (!ClientMetadata.allowsGrant(app, grantType)) {
                throw new OAuthException(OAuthError.UNAUTHORIZED_CLIENT, "This client did not register the grant " + grantType + ".");
            }
        });
    }
}
