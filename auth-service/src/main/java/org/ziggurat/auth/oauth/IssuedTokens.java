package org.ziggurat.auth.oauth;

import java.util.List;

/** What the token endpoint answers: values in clear, exactly once. {@code idToken}: null unless openid was granted. */
public record IssuedTokens(long accessTokenId, String accessToken, String refreshToken, long expiresIn,
        List<String> scopes, long createdAt, String idToken) {

    public IssuedTokens(long accessTokenId, String accessToken, String refreshToken, long expiresIn, List<String> scopes,
            long createdAt) {
        this(accessTokenId, accessToken, refreshToken, expiresIn, scopes, createdAt, null);
    }

    public IssuedTokens withIdToken(String value) {
        return new IssuedTokens(accessTokenId, accessToken, refreshToken, expiresIn, scopes, createdAt, value);
    }
}
