package org.ziggurat.auth.oauth;

/** RFC 6749 error codes with the HTTP status each answers with (RFC 6749 §5.2: 400, invalid_client 401). */
public enum OAuthError {
    INVALID_REQUEST("invalid_request", 400),
    INVALID_CLIENT("invalid_client", 401),
    INVALID_GRANT("invalid_grant", 400),
    UNAUTHORIZED_CLIENT("unauthorized_client", 400),
    UNSUPPORTED_GRANT_TYPE("unsupported_grant_type", 400),
    UNSUPPORTED_RESPONSE_TYPE("unsupported_response_type", 400),
    INVALID_SCOPE("invalid_scope", 400),
    ACCESS_DENIED("access_denied", 403),
    /** RFC 6750 §3.1: the presented access token does not carry what the request needs. */
    INSUFFICIENT_SCOPE("insufficient_scope", 403),
    SLOW_DOWN("slow_down", 429);

    private final String code;
    private final int status;

    OAuthError(String code, int status) {
        this.code = code;
        this.status = status;
    }

    public String code() {
        return code;
    }

    public int status() {
        return status;
    }
}
