package org.ziggurat.auth.oauth;

import java.util.List;

/** The grant types of the token endpoint: what it takes, the metadata lists, and clients may register. */
public final class GrantTypes {

    /** RFC 8628's grant type. */
    public static final String DEVICE_CODE = "urn:ietf:params:oauth:grant-type:device_code";
    public static final List<String> SUPPORTED = List.of("authorization_code", "password", "refresh_token",
            "client_credentials", DEVICE_CODE);

    private GrantTypes() {
    }
}
