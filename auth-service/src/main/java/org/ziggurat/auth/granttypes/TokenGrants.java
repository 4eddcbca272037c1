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
import org.ziggurat.auth.dpop.DpopProofs;
import org.ziggurat.auth.tokens.ResourceServers;
import org.ziggurat.auth.tokens.TokenRequest;

import java.util.List;
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
    private final ResourceServers resources;
    private final DpopProofs proofs;

    TokenGrants(Instance<TokenGrant> grants, ClientAuthenticator clients, ResourceServers resources, DpopProofs proofs) {
        this.resources = resources;
        this.proofs = proofs;
        this.byType = grants.stream().collect(Collectors.toUnmodifiableMap(TokenGrant::grantType, Function.identity()));
        this.clients = clients;
        // The metadata (grant_types_supported) and registration list GrantTypes.SUPPORTED: it must say what is served.
        if (!byType.keySet().equals(Set.copyOf(GrantTypes.SUPPORTED))) {
            throw new IllegalStateException("grant handlers " + byType.keySet() + " are not GrantTypes.SUPPORTED "
                    + GrantTypes.SUPPORTED);
        }
    }

    /**
     * A token request: the grant's parameters first, then its client, then its DPoP proof
     * ({@code dpopProof}, the header; null for none), then the grant's own rules.
     */
    public Uni<IssuedTokens> issue(OAuthForm form, String authorization, String dpopProof, String callerAddress) {
        String grantType = form.require("grant_type");
        ClientCredentials.Claimed claimed = ClientCredentials.claimed(authorization, form);
        TokenGrant grant = byType.get(grantType);
        if (grant == null) {
            throw new OAuthException(OAuthError.UNSUPPORTED_GRANT_TYPE,
                    "Supported grant types: " + String.join(", ", GrantTypes.SUPPORTED) + ".");
        }
        TokenGrant.Issuing issuing = grant.read(form, callerAddress);
        // RFC 8707's resource; and, outside an exchange (whose audience is its own), the audience
        // parameter that tools sent before RFC 8707 (oidc-agent 4's --aud), read as resources.
        List<String> named = resources.parse(GrantTypes.TOKEN_EXCHANGE.equals(grantType) ? form.get("resource")
                : String.join(" ", java.util.Objects.requireNonNullElse(form.get("resource"), ""),
                        java.util.Objects.requireNonNullElse(form.get("audience"), "")));
        Uni<ApplicationRow> client = claimed == null && grant.clientOptional() ? Uni.createFrom().nullItem()
                : clients.authenticate(claimed);
        // Each Mutiny step captures and restores the request's context: a request without a DPoP
        // proof (most) skips the proof's two steps, and the grant check is made in this step.
        return client.chain(app -> {
            requireGrantAllowed(app, grantType);
            return dpopProof == null ? issuing(issuing, app, named, null)
                    : proofs.tokenRequest(dpopProof, app == null ? null : app.clientId())
                            .chain(jkt -> issuing(issuing, app, named, jkt));
        });
    }

    private static Uni<IssuedTokens> issuing(TokenGrant.Issuing issuing, ApplicationRow app, List<String> named, String jkt) {
        if (jkt == null && app != null && app.dpopBoundAccessTokens()) {
            throw new OAuthException(OAuthError.INVALID_DPOP_PROOF,
                    "This application's tokens are bound to its key: send a DPoP proof (RFC 9449).");
        }
        return issuing.forClient(app, new TokenRequest(named, jkt));
    }

    /** A registered client uses only the grants it registered (null: no client, the grant allows that). */
    private static void requireGrantAllowed(ApplicationRow app, String grantType) {
        if (app != null && !ClientMetadata.allowsGrant(app, grantType)) {
            throw new OAuthException(OAuthError.UNAUTHORIZED_CLIENT, "This client did not register the grant " + grantType + ".");
        }
    }

    /** The authenticated client, when it may use the grant (a registered client only those it registered). */
    public Uni<ApplicationRow> authenticatedFor(ClientCredentials.Claimed claimed, String grantType) {
        return clients.authenticate(claimed).invoke(app -> requireGrantAllowed(app, grantType));
    }
}
