package org.ziggurat.auth.oauth;

import java.util.List;

/** What the token endpoint answers: values in clear, exactly once. */
public record IssuedTokens(long accessTokenId, String accessToken, String refreshToken, long expiresIn,
        List<String> scopes, long createdAt) {
}
