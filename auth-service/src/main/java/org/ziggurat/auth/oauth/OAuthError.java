package org.ziggurat.auth.oauth;

/**
 * RFC 6749 error codes with the HTTP status each answers with (RFC 6749 §5.2: 400, invalid_client
 * 401) and the {@code WWW-Authenticate} challenge that goes with it, if any. Every OAuth error
 * answer of this service is one of these, thrown as an {@link OAuthException}.
 */
public enum OAuthError {
    INVALID_REQUEST("invalid_request", 400, null),
    INVALID_CLIENT("invalid_client", 401, "Basic realm=\"ziggurat\""),
    INVALID_GRANT("invalid_grant", 400, null),
    UNAUTHORIZED_CLIENT("unauthorized_client", 400, null),
    UNSUPPORTED_GRANT_TYPE("unsupported_grant_type", 400, null),
    UNSUPPORTED_RESPONSE_TYPE("unsupported_response_type", 400, null),
    INVALID_SCOPE("invalid_scope", 400, null),
    ACCESS_DENIED("access_denied", 403, null),
    /** RFC 6750 §3.1: the presented access token does not carry what the request needs. */
    INSUFFICIENT_SCOPE("insufficient_scope", 403, "Bearer error=\"insufficient_scope\""),
    /** RFC 6750 §3.1: a request that needs the resource owner's access token came without one. */
    TOKEN_MISSING("invalid_request", 401, "Bearer"),
    /** RFC 6750 §3.1: the access token is unknown, expired, revoked, or not an access token. */
    TOKEN_INVALID("invalid_request", 401, "Bearer error=\"invalid_token\""),
    SLOW_DOWN("slow_down", 429, null),
    /** OpenID Connect Core §3.1.2.6: prompt=none, and the person must sign in. */
    LOGIN_REQUIRED("login_required", 400, null),
    /** OpenID Connect Core §3.1.2.6: prompt=none, and the person must consent. */
    CONSENT_REQUIRED("consent_required", 400, null),
    /** RFC 8628 §3.5: the person has not answered yet; poll again after the interval. */
    AUTHORIZATION_PENDING("authorization_pending", 400, null),
    /** RFC 8628 §3.5: polled too soon; the interval grew by 5 s. A 400, unlike the rate limit's 429. */
    DEVICE_SLOW_DOWN("slow_down", 400, null),
    /** RFC 8628 §3.5: the person denied the device. */
    DEVICE_ACCESS_DENIED("access_denied", 400, null),
    /** RFC 8628 §3.5: the device code expired before the person answered. */
    EXPIRED_TOKEN("expired_token", 400, null),
    /** RFC 7591 §3.2.2: a redirect URI that is not good. */
    INVALID_REDIRECT_URI("invalid_redirect_uri", 400, null),
    /** RFC 7591 §3.2.2: other client metadata that is not good, or not supported. */
    INVALID_CLIENT_METADATA("invalid_client_metadata", 400, null),
    /** RFC 8707 §2: a resource that is not good, or that the grant does not allow. */
    INVALID_TARGET("invalid_target", 400, null),
    /** OpenID Connect Core §6.4 / RFC 9101 §6.2: a request object that cannot be taken. */
    INVALID_REQUEST_OBJECT("invalid_request_object", 400, null),
    /** RFC 9449 §5: the DPoP proof of a token request is missing where required, or not good. */
    INVALID_DPOP_PROOF("invalid_dpop_proof", 400, null),
    /** RFC 9449 §8: the proof must carry a nonce of this server's; the answer's DPoP-Nonce header has one. */
    USE_DPOP_NONCE("use_dpop_nonce", 400, null),
    /** RFC 9449 §7.1: a protected resource's refusal of a DPoP call's proof. */
    DPOP_PROOF_REFUSED("invalid_dpop_proof", 401, "DPoP error=\"invalid_dpop_proof\", algs=\"ES256 ES384 ES512 RS256 RS384 "
            + "RS512 PS256 PS384 PS512\"");

    private final String code;
    private final int status;
    private final String challenge;

    OAuthError(String code, int status, String challenge) {
        this.code = code;
        this.status = status;
        this.challenge = challenge;
    }

    public String code() {
        return code;
    }

    public int status() {
        return status;
    }

    /** The {@code WWW-Authenticate} header's value, or null when the answer carries none. */
    public String challenge() {
        return challenge;
    }
}
