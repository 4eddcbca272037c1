package org.ziggurat.auth.endpoints;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.ziggurat.auth.clients.ClientAuthenticator;
import org.ziggurat.auth.clients.ClientCredentials;
import org.ziggurat.auth.oauth.OAuthForm;
import org.ziggurat.platform.problem.ProblemException;

/**
 * Who may follow the revocation feed: a confidential client with the introspection right (the
 * gateway), by its HTTP Basic credentials, as at the introspection endpoint. Settled before the
 * stream starts, while a refusal can still be a 401 or 403.
 */
public class RevocationFeedCallers {

    private static final OAuthForm NO_FORM = OAuthForm.parse("application/x-www-form-urlencoded", "");

    private final ClientAuthenticator clients;

    RevocationFeedCallers(ClientAuthenticator clients) {
        this.clients = clients;
    }

    @ServerRequestFilter
    @RevocationFeedResource.Followers
    public Uni<Response> check(ContainerRequestContext request) {
        String authorization = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        return Uni.createFrom().item(() -> ClientCredentials.claimed(authorization, NO_FORM))
                .chain(clients::authenticateConfidential)
                .map(app -> {
                    if (!app.introspection()) {
                        throw ProblemException.forbidden("Only the gateway follows the revocation feed.");
                    }
                    return null;
                });
    }
}
