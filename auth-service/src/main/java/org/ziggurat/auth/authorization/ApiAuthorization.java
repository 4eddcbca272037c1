package org.ziggurat.auth.authorization;

import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.Scopes;
import java.util.Collection;
import java.util.Set;

/**
 * The rules of the spec's API form of the authorization endpoint ({@code POST /oauth/authorize}
 * with {@code username} and the resource owner's access token), apart from HTTP so that they are
 * tested on their own.
 *
 * <p>The form creates a code without a consent page, so the token it presents stands for the
 * person's consent, and the code can never carry more than that token:
 * <ul>
 * <li>only the person's own token may be used: one issued without a client (the password grant
 * with the person's own credentials), never one an application holds, the asking one's included
 * (a token a client got in a session, or by exchange, would become a new, longer grant of its
 * own), and never an exchanged one (it speaks for the service that holds it);</li>
 * <li>the authorization it starts ends no later than the presented token's (the code carries it);</li>
 * <li>every scope asked for must be one the application registered ({@code invalid_scope}) and
 * one the presented token carries ({@code insufficient_scope}); {@code public} needs none.</li>
 * </ul>
 */
public final class ApiAuthorization {

    private ApiAuthorization() {
    }

    /** The presented access token, as far as these rules need it (live and of a person: checked before). */
    public record Presented(Long applicationId, String username, Collection<String> scopes, String actor) {
    }

    /**
     * Nothing when the token may authorize these scopes for the application; an
     * {@link OAuthException} saying why not otherwise.
     */
    public static void check(Presented token, long applicationId, Collection<String> registeredScopes, boolean verified,
            String username, Set<String> requested) {
        if (token.username() == null || !token.username().equalsIgnoreCase(username)) {
            throw new OAuthException(OAuthError.ACCESS_DENIED, "The access token belongs to another person.");
        }
        if (token.applicationId() != null || token.actor() != null) {
            throw new OAuthException(OAuthError.INSUFFICIENT_SCOPE, "This access token was issued to an application: "
                    + "only the person's own token (issued without a client) authorizes a code here.");
        }
        Scopes.requireAllowed(requested, registeredScopes, verified);
        for (String scope : Scopes.granted(requested)) {
            if (!token.scopes().contains(scope)) {
                throw new OAuthException(OAuthError.INSUFFICIENT_SCOPE,
                        "The access token does not carry the scope '" + scope + "', so it cannot grant it.");
            }
        }
    }
}
