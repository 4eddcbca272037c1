package org.ziggurat.auth.tokens;

import org.ziggurat.auth.oauth.Scopes;
import org.ziggurat.auth.tokens.TokenRow;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Which token counts for what, apart from HTTP and the database, so that they are tested on
 * their own: access and refresh tokens are never interchangeable, and a client learns and
 * changes only what is its own.
 */
public final class TokenRules {

    /** Seconds a client at its cap of live device codes or pushed requests is asked to wait. */
    public static final long LIVE_CAP_RETRY_AFTER = 10;

    private TokenRules() {
    }

    /**
     * How long an authorization granted now lasts, however often its refresh tokens rotate: the
     * platform's limit, or the application's own when that is shorter ({@code applicationSeconds},
     * null when it has none).
     */
    public static java.time.Duration authorizationLifetime(java.time.Duration platform, Integer applicationSeconds) {
        return applicationSeconds != null && applicationSeconds < platform.toSeconds()
                ? java.time.Duration.ofSeconds(applicationSeconds) : platform;
    }

    /**
     * The login session tokens are bound to, and when the authorization they belong to ends:
     * {@code sessionHash} null when no session's end revokes them.
     */
    public record Binding(byte[] sessionHash, Instant authorizationEnds) {
    }

    /**
     * OpenID Connect Core §11: an OpenID Connect authorization ({@code openid}) without
     * {@code offline_access} ends with the person's session. With a sign-in, it ends when that
     * session does, and signing out of it revokes its tokens; without one (the password grant, the
     * API form of the authorization endpoint), a session's lifetime after now. Any other
     * authorization lasts its {@code lifetime}. Null when the sign-in ended already: nothing may be
     * issued for it.
     */
    public static Binding binding(java.util.Collection<String> scopes, SignIn signIn, Instant now,
            java.time.Duration lifetime, java.time.Duration sessionLifetime) {
        Instant ends = now.plus(lifetime);
        if (!scopes.contains(Scopes.OPENID) || scopes.contains(Scopes.OFFLINE_ACCESS)) {
            return new Binding(null, ends);
        }
        if (signIn == null) {
            return new Binding(null, earlier(ends, now.plus(sessionLifetime)));
        }
        if (signIn.endsAt() == null || !signIn.endsAt().isAfter(now)) {
            return null;
        }
        return new Binding(signIn.sessionHash(), earlier(ends, signIn.endsAt()));
    }

    private static Instant earlier(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    /**
     * A token that may stand for its person (or client) in a request: a live access token. A
     * refresh token is for the token endpoint alone (RFC 6749 §1.5), whatever else it is.
     */
    public static boolean isBearer(TokenRow row, Instant now) {
        return row != null && row.isAccess() && row.isLive(now);
    }

    /**
     * RFC 7662's {@code active}, as the asking client may learn it: live, and for a refresh
     * token not rotated yet; about any token for a client with the introspection right (the
     * gateway), about its own tokens only for any other client.
     */
    public static boolean activeFor(TokenRow row, Instant now, long askingApplicationId, boolean mayIntrospectAny) {
        if (row == null || !row.isLive(now) || (!row.isAccess() && row.usedAt() != null)) {
            return false;
        }
        return mayIntrospectAny || Objects.equals(row.applicationId(), askingApplicationId);
    }

    /**
     * RFC 7662 §4 for a resource server's own credential: a live access token whose audience
     * ({@code stated}: the platform API's when it names none) names {@code resource}; never a refresh token.
     */
    public static boolean activeForResource(TokenRow row, Instant now, List<String> stated, String resource) {
        return row != null && row.isAccess() && row.isLive(now) && stated != null && stated.contains(resource);
    }

    /** RFC 7662's {@code token_type}: the gateway lets only {@code bearer} through. */
    public static String tokenType(TokenRow row) {
        return row.isAccess() ? "bearer" : "refresh_token";
    }

    /**
     * RFC 7009: a client revokes its own tokens ({@code callerPersonId} null); a bearer token
     * revokes the tokens of its own person issued to its own client (or, without a client, the
     * person's client-less ones).
     */
    public static boolean mayRevoke(Long callerApplicationId, Long callerPersonId, TokenRow row) {
        return Objects.equals(callerApplicationId, row.applicationId())
                && (callerPersonId == null || callerPersonId.equals(row.personId()));
    }

    /**
     * {@code DELETE /oauth/authorize} (spec 4.2): the authenticated client deletes an access token
     * of its own, and of the person it names, when it names one. A refresh token is not the
     * {@code access_token} the form asks for.
     */
    public static boolean deletableBy(TokenRow row, long applicationId, String username) {
        return row != null && row.isAccess() && Objects.equals(row.applicationId(), applicationId)
                && (username == null || username.equalsIgnoreCase(row.username()));
    }

    /** Why a refresh token rotated nothing. */
    public enum RefreshRefusal {
        /** Used before: a replay, which revokes the whole authorization (RFC 6819 §5.2.2.3). */
        REUSED,
        /** Issued to a client that did not authenticate. */
        CLIENT_MUST_AUTHENTICATE,
        /** Issued to another client than the one that sends it. */
        OTHER_CLIENT,
        /** Asks for a scope its grant does not have. */
        WIDENS_SCOPES,
        /** Bound to a DPoP key (a public client's, RFC 9449 §5) that the request's proof was not signed with. */
        OTHER_KEY,
        /** Unknown, expired, revoked, no refresh token, or changed meanwhile. */
        INVALID
    }

    /**
     * Read after the rotation refused: {@code clientId} is the authenticated client's
     * application id, null when the request named none.
     */
    public static RefreshRefusal refreshRefusal(TokenRow row, Long clientId, Set<String> requested, Instant now) {
        return refreshRefusal(row, clientId, requested, now, null);
    }

    /** The same, for a request whose DPoP proof's key has the thumbprint {@code jkt} (null: no proof). */
    public static RefreshRefusal refreshRefusal(TokenRow row, Long clientId, Set<String> requested, Instant now, String jkt) {
        boolean refreshToken = row != null && !row.isAccess();
        boolean ours = refreshToken && Objects.equals(row.applicationId(), clientId);
        if (ours && row.usedAt() != null && row.revokedAt() == null) {
            return RefreshRefusal.REUSED;
        }
        if (refreshToken && row.usedAt() == null && row.isLive(now)) {
            if (!ours) {
                return clientId == null ? RefreshRefusal.CLIENT_MUST_AUTHENTICATE : RefreshRefusal.OTHER_CLIENT;
            }
            if (!row.scopes().containsAll(Scopes.granted(requested))) {
                return RefreshRefusal.WIDENS_SCOPES;
            }
            if (row.jkt() != null && !row.jkt().equals(jkt)) {
                return RefreshRefusal.OTHER_KEY;
            }
        }
        return RefreshRefusal.INVALID;
    }
}
