package org.ziggurat.auth.oauth;

import java.util.List;

/** The grant types of the token endpoint: what it takes, the metadata lists, and clients may register. */
public final class GrantTypes {

    /** RFC 8628's grant type. */
    public static final String DEVICE_CODE = "urn:ietf:params:oauth:grant-type:device_code";
    /** RFC 8693's grant type. */
    public static final String TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
    public static final List<String> SUPPORTED = List.of("authorization_code", "password", "refresh_token",
            "client_credentials", DEVICE_CODE, TOKEN_EXCHANGE);

    private GrantTypes() {
    }
}
