package org.ziggurat.auth.granttypes;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.clients.ApplicationRow;
import org.ziggurat.auth.oauth.IssuedTokens;
import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.OAuthForm;
import org.ziggurat.auth.oauth.Scopes;
import org.ziggurat.auth.tokens.TokenIssuer;
import org.ziggurat.auth.tokens.TokenRequest;

import java.util.List;
import java.util.Set;
import java.util.UUID;

/** client_credentials (RFC 6749 §4.4): a confidential client acts for itself; no refresh token (§4.4.3). */
@ApplicationScoped
public class ClientCredentialsGrant implements TokenGrant {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final TokenIssuer issuer;

    ClientCredentialsGrant(TokenIssuer issuer) {
        this.issuer = issuer;
    }

    @Override
    public String grantType() {
        return "client_credentials";
    }

    @Override
    public Issuing read(OAuthForm form, String callerAddress) {
        Set<String> scopes = Scopes.parse(form.get("scope"));
        return (client, request) -> forItself(client, scopes, request);
    }

    Uni<IssuedTokens> forItself(ApplicationRow client, Set<String> scopes, TokenRequest request) {
        if (!client.confidential()) {
            return Uni.createFrom().failure(new OAuthException(OAuthError.UNAUTHORIZED_CLIENT,
                    "Only confidential clients may use client_credentials."));
        }
        Scopes.requireAllowed(scopes, client.scopes(), client.verified());
        if (scopes.contains(Scopes.OPENID)) {
            return Uni.createFrom().failure(OAuthException.invalidScope(
                    "The openid scope needs a person: client_credentials has none."));
        }
        Uni<IssuedTokens> issued = issuer.issue(client, null, null, List.copyOf(scopes), UUID.randomUUID(), false, null,
                null, null, TokenIssuer.bounds(client, request, null));
        // DEBUG for the same reason as a refresh; the step only when it logs (each step captures the request's context).
        return !EVENTS.isDebugEnabled() ? issued
                : issued.invoke(done -> EVENTS.debugf("event=token_issued grant=client_credentials client_id=%s", client.clientId()));
    }
}
