package org.ziggurat.auth;

/** The issuer identifier (RFC 8414, OpenID Connect): the configured URL without a trailing slash. */
public final class Issuer {

    private Issuer() {
    }

    public static String of(AuthConfig config) {
        String issuer = config.issuer();
        return issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer;
    }
}
