package org.ziggurat.auth.oauth;

import java.util.HashSet;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.ziggurat.platform.token.ScopeNames;

/**
 * The platform's scopes. A request without scopes gets none, shown as {@code public}; an unknown
 * scope is refused.
 */
public final class Scopes {

    public static final String PUBLIC = ScopeNames.PUBLIC;
    /** OpenID Connect (Core §3.1.2.1): asks for an ID token. */
    public static final String OPENID = ScopeNames.OPENID;
    /**
     * OpenID Connect Core §11: the application keeps access while the person is away. Without it,
     * an OpenID Connect authorization ends with the person's session ({@code TokenRules.binding}).
     */
    public static final String OFFLINE_ACCESS = ScopeNames.OFFLINE_ACCESS;
    public static final List<String> KNOWN = ScopeNames.ALL;

    private Scopes() {
    }

    /** Space-delimited scopes, in a stable order; {@code invalid_scope} for an unknown one. */
    public static Set<String> parse(String requested) {
        Set<String> scopes = new LinkedHashSet<>();
        if (requested == null || requested.isBlank()) {
            return scopes;
        }
        Set<String> asked = new HashSet<>(List.of(requested.trim().split("[ ]+")));
        for (String scope : asked) {
            if (!KNOWN.contains(scope)) {
                throw OAuthException.invalidScope("Unknown scope '" + printable(scope) + "'. Known scopes: "
                        + String.join(" ", KNOWN) + ".");
            }
        }
        // The platform's order, whatever the request's.
        KNOWN.stream().filter(asked::contains).forEach(scopes::add);
        return scopes;
    }

    /** The scopes a grant must hold for these to be asked of it: {@code public} needs none. */
    public static List<String> granted(Collection<String> scopes) {
        return scopes.stream().filter(s -> !s.equals(PUBLIC)).toList();
    }

    /** What a token shows: its scopes, or {@code public} when it has none. */
    public static String display(Collection<String> scopes) {
        return scopes.isEmpty() ? PUBLIC : String.join(" ", scopes);
    }

    public static List<String> list(Collection<String> scopes) {
        return scopes.isEmpty() ? List.of(PUBLIC) : List.copyOf(scopes);
    }

    /**
     * {@code invalid_scope} unless every requested scope is one the application may ask for: one
     * it registered, and for the scopes only the platform's own applications get
     * ({@code ScopeNames.FIRST_PARTY_ONLY}), one an operator {@code verified}.
     */
    public static void requireAllowed(Set<String> requested, Collection<String> allowed, boolean verified) {
        for (String scope : requested) {
            if (!scope.equals(PUBLIC) && !allowed.contains(scope)) {
                throw OAuthException.invalidScope("This application may not ask for the scope '" + scope + "'.");
            }
            if (!verified && ScopeNames.FIRST_PARTY_ONLY.contains(scope)) {
                throw OAuthException.invalidScope("Only an application the platform's operators verified may ask for the "
                        + "scope '" + scope + "'.");
            }
        }
    }

    /**
     * The scopes only an application the operators verified may hold ({@link ScopeNames#FIRST_PARTY_ONLY}),
     * checked where tokens are issued from other tokens (refresh, exchange), since the mark may have gone.
     */
    public static void requireFirstPartyOnlyVerified(Collection<String> scopes, boolean verified) {
        if (verified) {
            return;
        }
        for (String scope : scopes) {
            if (ScopeNames.FIRST_PARTY_ONLY.contains(scope)) {
                throw OAuthException.invalidScope("Only an application the platform's operators verified may hold the "
                        + "scope '" + scope + "'.");
            }
        }
    }

    private static String printable(String s) {
        String clipped = s.length() > 40 ? s.substring(0, 40) + "…" : s;
        return clipped.replaceAll("\\p{Cntrl}", "?");
    }
}
