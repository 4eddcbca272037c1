package org.ziggurat.platform.token;

import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;

/**
 * The headers of a call from one service to another: this service's own platform token, and the
 * public origin of the request being served (forwarded headers and request id), so that URLs the
 * callee builds are public ones too. Each service's REST-client header factory delegates here.
 */
public final class ServiceCallHeaders {

    private static final String[] PASSED_ON = {"X-Forwarded-Proto", "X-Forwarded-Host", "X-Forwarded-Prefix",
            "X-Request-Id"};

    private ServiceCallHeaders() {
    }

    public static MultivaluedMap<String, String> of(PlatformTokenSigner signer, MultivaluedMap<String, String> incoming) {
        MultivaluedMap<String, String> headers = new MultivaluedHashMap<>();
        headers.putSingle(PlatformClaims.HEADER, signer.cachedServiceToken());
        for (String name : PASSED_ON) {
            String value = incoming == null ? null : incoming.getFirst(name);
            if (value != null) {
                headers.putSingle(name, value);
            }
        }
        return headers;
    }
}
