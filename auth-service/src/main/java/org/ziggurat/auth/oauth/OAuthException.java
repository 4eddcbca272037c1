package org.ziggurat.auth.oauth;

/** An OAuth error answer: {@code {"error", "error_description"}} with the error's status. */
public class OAuthException extends RuntimeException {

    private final OAuthError error;
    private final Long retryAfterSeconds;
    private String dpopNonce;

    public OAuthException(OAuthError error, String description) {
        this(error, description, null);
    }

    public OAuthException(OAuthError error, String description, Long retryAfterSeconds) {
        super(description, null, false, false);
        this.error = error;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public OAuthError error() {
        return error;
    }

    public Long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /** A nonce for the client's next DPoP proof (RFC 9449 §8), sent as the DPoP-Nonce header; null for none. */
    public String dpopNonce() {
        return dpopNonce;
    }

    public OAuthException withDpopNonce(String nonce) {
        this.dpopNonce = nonce;
        return this;
    }

    public static OAuthException invalidRequest(String description) {
        return new OAuthException(OAuthError.INVALID_REQUEST, description);
    }

    public static OAuthException invalidGrant(String description) {
        return new OAuthException(OAuthError.INVALID_GRANT, description);
    }

    public static OAuthException invalidClient(String description) {
        return new OAuthException(OAuthError.INVALID_CLIENT, description);
    }

    public static OAuthException invalidScope(String description) {
        return new OAuthException(OAuthError.INVALID_SCOPE, description);
    }
}
