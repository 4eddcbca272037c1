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

    /** The form parameter of a second factor's code, in the client-less form of the grant. */
    public static final String SECOND_FACTOR_CODE = "otp";

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
        String code = form.get(SECOND_FACTOR_CODE);
        Set<String> scopes = Scopes.parse(form.get("scope"));
        return (client, request) -> password(client, username, password, code, scopes, callerAddress, request);
    }

    Uni<IssuedTokens> password(ApplicationRow clientOrNull, String username, String password, String code, Set<String> scopes,
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
                .chain(person -> secondFactor(clientOrNull, person, code, clientAddress)
                        .map(methods -> new Checked(person, methods)))
                .chain(checked -> issuer.inTransaction(conn -> issuer.issue(conn, clientOrNull,
                        checked.person().userId(), checked.person().username(), List.copyOf(scopes), UUID.randomUUID(), true,
                        Instant.now(), null, checked.methods(), bounds)
                        .chain(issued -> issuer.withIdToken(issued, List.copyOf(scopes), clientOrNull, checked.person().userId(),
                                Instant.ofEpochSecond(issued.createdAt()), null, checked.methods())))
                        // The application now has access: it is one of the person's grants.
                        .call(issued -> clientOrNull == null ? Uni.createFrom().voidItem()
                                : consents.grant(clientOrNull.id(), checked.person().userId(), scopes))
                        .invoke(issued -> EVENTS.infof("event=token_issued grant=password client_id=%s person_id=%d",
                                clientIdOf(clientOrNull), checked.person().userId())));
    }

    private record Checked(DirectoryClient.VerifiedPerson person, List<String> methods) {
    }

    /**
     * A password alone signs in a person without a second factor. One with a second factor signs in
     * here only without a client (the platform's own tools: an operator's, who acts only with such a
     * token) and with a code of it ({@value #SECOND_FACTOR_CODE}: a TOTP code or a recovery code, as
     * the sign-in page takes them; checked and throttled by the directory). An application's password
     * grant cannot carry it: it has the code flow and the device flow, where the person's own page asks.
     */
    private Uni<List<String>> secondFactor(ApplicationRow clientOrNull, DirectoryClient.VerifiedPerson person, String code,
            String clientAddress) {
        if (!person.secondFactor()) {
            return Uni.createFrom().item(AuthenticationMethods.PASSWORD_ONLY);
        }
        if (clientOrNull != null || code == null || code.isBlank()) {
            EVENTS.infof("event=password_grant_refused reason=second_factor client_id=%s person_id=%d",
                    clientIdOf(clientOrNull), person.userId());
            return Uni.createFrom().failure(OAuthException.invalidGrant(clientOrNull != null
                    ? "This account has two-factor authentication, which an application's password grant cannot carry. "
                            + "Use the authorization code flow (with PKCE) or the device flow."
                    : "This account has two-factor authentication: send a code of it as " + SECOND_FACTOR_CODE
                            + " (or use the device flow)."));
        }
        return directory.verifySecondFactor(new DirectoryClient.SecondFactorCheck(person.userId(), code, clientAddress))
                // Invalid: not the shape of a code at all (too long), which the directory refuses unchecked.
                .onFailure(e -> e instanceof DirectoryClient.PasswordRefused || e instanceof DirectoryClient.Invalid)
                .transform(e -> {
                    EVENTS.infof("event=second_factor_failed grant=password person_id=%d", person.userId());
                    return OAuthException.invalidGrant("The second factor's code is not valid.");
                })
                .onFailure(DirectoryClient.PasswordThrottled.class).transform(e -> new OAuthException(OAuthError.INVALID_GRANT,
                        "Too many second-factor codes for this account. Try again later.",
                        ((DirectoryClient.PasswordThrottled) e).retryAfter()))
                .replaceWith(AuthenticationMethods.PASSWORD_AND_CODE);
    }
}
