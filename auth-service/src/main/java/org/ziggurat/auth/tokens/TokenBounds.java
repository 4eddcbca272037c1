package org.ziggurat.auth.tokens;

import java.util.List;

/**
 * What new tokens are bound to besides their scopes: the access token's audience (RFC 8707, null
 * for the platform API) and the grant's (what its refresh token may be narrowed to, null for any),
 * the DPoP key's thumbprint (RFC 9449 cnf.jkt, null for a bearer token) and whether the refresh
 * token is bound to it too (a public client's, §5), and the act claim (JSON) of an exchanged
 * token (RFC 8693), null for others; {@code notAfter}: when the access token must end at the
 * latest (an exchanged token, never outliving the one it came from), null for its usual lifetime;
 * {@code inherited}: the sign-in and authorization an exchanged token takes over from its subject
 * token (it ends with that session and that authorization), null for others.
 */
public record TokenBounds(List<String> audience, List<String> grantAudience, String jkt, boolean refreshBound,
        String actor, java.time.Instant notAfter, TokenRepository.Inherited inherited) {

    public static final TokenBounds NONE = new TokenBounds(null, null, null, false, null, null, null);

    /** A token for these audiences, bound to this key (or none), nothing else. */
    public static TokenBounds of(List<String> audience, List<String> grantAudience, String jkt, boolean refreshBound) {
        return new TokenBounds(audience, grantAudience, jkt, refreshBound, null, null, null);
    }
}
