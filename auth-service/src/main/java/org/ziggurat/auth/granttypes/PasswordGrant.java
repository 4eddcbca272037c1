package org.ziggurat.auth.granttypes;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;
import org.ziggurat.auth.clients.ApplicationRow;
import org.ziggurat.auth.oauth.IssuedTokens;
import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.OAuthForm;
import org.ziggurat.auth.oauth.Scopes;
import org.ziggurat.auth.oauth.AuthenticationMethods;
import org.ziggurat.auth.tokens.ConsentRepository;
import org.ziggurat.auth.tokens.TokenIssuer;
import org.ziggurat.auth.tokens.TokenBounds;
import org.ziggurat.auth.tokens.TokenRequest;
import org.ziggurat.directory.client.DirectoryClient;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static org.ziggurat.auth.tokens.TokenIssuer.clientIdOf;

/**
 * password (RFC 6749 §4.3): the directory checks the person (and throttles); a client, if any,
 * must have opted in to the grant. The spec's client-less form stays for the platform's own tools.
 */
@ApplicationScoped
public class PasswordGrant implements TokenGrant {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final DirectoryClient directory;
    private final ConsentRepository consents;
    private final TokenIssuer issuer;

    PasswordGrant(@RestClient DirectoryClient directory, ConsentRepository consents, TokenIssuer issuer) {
        this.directory = directory;
        this.consents = consents;
        this.issuer = issuer;
    }

    @Override
    public String grantType() {
        return "password";
    }

    @Override
    public boolean clientOptional() {
        return true;
    }

    @Override
    public Issuing read(OAuthForm form, String callerAddress) {
        String username = form.require("username");
        String password = form.require("password");
        Set<String> scopes = Scopes.parse(form.get("scope"));
        return (client, request) -> password(client, username, password, scopes, callerAddress, request);
    }

    Uni<IssuedTokens> password(ApplicationRow clientOrNull, String username, String password, Set<String> scopes,
            String clientAddress, TokenRequest request) {
        TokenBounds bounds = TokenIssuer.bounds(clientOrNull, request, null);
        if (clientOrNull == null && scopes.contains(Scopes.OPENID)) {
            return Uni.createFrom().failure(OAuthException.invalidScope(
                    "The openid scope needs a client: an ID token is issued to one (its audience)."));
        }
        if (clientOrNull != null) {
            if (!clientOrNull.passwordGrant()) {
                return Uni.createFrom().failure(new OAuthException(OAuthError.UNAUTHORIZED_CLIENT,
                        "The password grant is switched off for this application."));
            }
            Scopes.requireAllowed(scopes, clientOrNull.scopes(), clientOrNull.verified());
        }
        return directory.verifyPassword(new DirectoryClient.PasswordCheck(username, password, clientAddress))
                .onFailure(DirectoryClient.PasswordRefused.class).transform(e -> {
                    EVENTS.infof("event=login_failed grant=password client_id=%s", clientIdOf(clientOrNull));
                    return OAuthException.invalidGrant("The username or password is not valid.");
                })
                .onFailure(DirectoryClient.PasswordThrottled.class).transform(e -> new OAuthException(OAuthError.INVALID_GRANT,
                        "Too many sign-in attempts for this account or address. Try again later.", ((DirectoryClient.PasswordThrottled) e).retryAfter()))
                .invoke(person -> {
                    // A password alone is not how this person signs in: the grant cannot carry the second factor.
                    if (person.secondFactor()) {
                        EVENTS.infof("event=password_grant_refused reason=second_factor client_id=%s person_id=%d",
                                clientIdOf(clientOrNull), person.userId());
                        throw OAuthException.invalidGrant("This account has two-factor authentication, which the password "
                                + "grant cannot carry. Use the authorization code flow (with PKCE) or the device flow.");
                    }
                })
                .chain(person -> issuer.inTransaction(conn -> issuer.issue(conn, clientOrNull,
                        person.userId(), person.username(), List.copyOf(scopes), UUID.randomUUID(), true, Instant.now(), null,
                        AuthenticationMethods.PASSWORD_ONLY, bounds)
                        .chain(issued -> issuer.withIdToken(issued, List.copyOf(scopes), clientOrNull, person.userId(),
                                Instant.ofEpochSecond(issued.createdAt()), null, AuthenticationMethods.PASSWORD_ONLY)))
                        // The application now has access: it is one of the person's grants.
                        .call(issued -> clientOrNull == null ? Uni.createFrom().voidItem()
                                : consents.grant(clientOrNull.id(), person.userId(), scopes))
                        .invoke(issued -> EVENTS.infof("event=token_issued grant=password client_id=%s person_id=%d",
                                clientIdOf(clientOrNull), person.userId())));
    }
}
