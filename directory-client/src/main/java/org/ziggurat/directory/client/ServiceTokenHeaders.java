package org.ziggurat.directory.client;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import org.eclipse.microprofile.rest.client.ext.ClientHeadersFactory;
import org.ziggurat.platform.token.PlatformClaims;
import org.ziggurat.platform.token.PlatformTokenSigner;

/**
 * The headers of a call from one service to directory-service: the calling service's own platform
 * token, and the public origin of the request being served (forwarded headers and request id), so
 * that URLs the callee builds are public ones too.
 */
@ApplicationScoped
public class ServiceTokenHeaders implements ClientHeadersFactory {

    private static final String[] PASSED_ON = {"X-Forwarded-Proto", "X-Forwarded-Host", "X-Forwarded-Prefix",
            "X-Request-Id"};

    private final PlatformTokenSigner signer;

    ServiceTokenHeaders(PlatformTokenSigner signer) {
        this.signer = signer;
    }

    @Override
    public MultivaluedMap<String, String> update(MultivaluedMap<String, String> incoming,
            MultivaluedMap<String, String> outgoing) {
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
