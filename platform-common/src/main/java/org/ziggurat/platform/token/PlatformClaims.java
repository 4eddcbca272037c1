package org.ziggurat.platform.token;

/** Names of the platform token's own claims (beyond {@code iss}, {@code aud}, {@code sub}, {@code upn}, {@code groups}). */
public final class PlatformClaims {

    /** The header that carries the platform token; {@code Authorization} stays the caller's own. */
    public static final String HEADER = "X-Platform-Token";
    /** Space-delimited OAuth scopes of the access token the gateway validated. */
    public static final String SCOPE = "scope";
    /** The OAuth client that holds the access token. */
    public static final String CLIENT_ID = "client_id";
    /**
     * How the person signed in (OpenID Connect's acr, as introspection told the gateway): absent
     * when not known, which counts as a single factor.
     */
    public static final String ACR = "acr";
    /** The class of a sign-in with a second factor (REFEDS's multi-factor profile, which research federations use). */
    public static final String MULTI_FACTOR = "https://refeds.org/profile/mfa";
    /** Present on service tokens only: the calling service's name, equal to its signer name. */
    public static final String SERVICE = "svc";
    /** The {@code groups} entry of every service token. */
    public static final String SERVICE_GROUP = "service";

    private PlatformClaims() {
    }
}
