package org.ziggurat.platform.token;

/** Names of the platform token's own claims (beyond {@code iss}, {@code aud}, {@code sub}, {@code upn}, {@code groups}). */
public final class PlatformClaims {

    /** The header that carries the platform token; {@code Authorization} stays the caller's own. */
    public static final String HEADER = "X-Platform-Token";
    /** Space-delimited OAuth scopes of the access token the gateway validated. */
    public static final String SCOPE = "scope";
    /** The OAuth client that holds the access token. */
    public static final String CLIENT_ID = "client_id";
    /** Present on service tokens only: the calling service's name, equal to its signer name. */
    public static final String SERVICE = "svc";
    /** The {@code groups} entry of every service token. */
    public static final String SERVICE_GROUP = "service";

    private PlatformClaims() {
    }
}
