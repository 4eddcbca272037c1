package org.ziggurat.auth.oauth;

import java.util.List;

/**
 * What the token endpoint answers: values in clear, exactly once. {@code idToken}: null unless
 * openid was granted. {@code dpop}: the access token is bound to the request's DPoP key (its
 * token_type is DPoP, RFC 9449 §5). {@code issuedTokenType}: RFC 8693's, for an exchange; null otherwise.
 */
public record IssuedTokens(long accessTokenId, String accessToken, String refreshToken, long expiresIn,
        List<String> scopes, long createdAt, String idToken, boolean dpop, String issuedTokenType) {

    public IssuedTokens(long accessTokenId, String accessToken, String refreshToken, long expiresIn, List<String> scopes,
            long createdAt) {
        this(accessTokenId, accessToken, refreshToken, expiresIn, scopes, createdAt, null, false, null);
    }

    public IssuedTokens withIdToken(String value) {
        return new IssuedTokens(accessTokenId, accessToken, refreshToken, expiresIn, scopes, createdAt, value, dpop,
                issuedTokenType);
    }

    /** Bound to the DPoP key of this thumbprint; as they are for null. */
    public IssuedTokens boundTo(String jkt) {
        return jkt == null ? this : new IssuedTokens(accessTokenId, accessToken, refreshToken, expiresIn, scopes, createdAt,
                idToken, true, issuedTokenType);
    }

    /** An exchange's answer (RFC 8693 §2.2.1). */
    public IssuedTokens exchanged(String tokenType) {
        return new IssuedTokens(accessTokenId, accessToken, refreshToken, expiresIn, scopes, createdAt, idToken, dpop,
                tokenType);
    }
}
