package org.ziggurat.auth.directory;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import org.eclipse.microprofile.rest.client.ext.ClientHeadersFactory;
import org.ziggurat.platform.token.PlatformClaims;
import org.ziggurat.platform.token.PlatformTokenSigner;

/** Every call to another service carries auth-service's own platform token (cached by the signer). */
@ApplicationScoped
public class ServiceTokenHeaders implements ClientHeadersFactory {

    private static final String[] FORWARDED = {"X-Forwarded-Proto", "X-Forwarded-Host", "X-Forwarded-Prefix",
            "X-Request-Id"};

    @Inject
    PlatformTokenSigner signer;

    @Override
    public MultivaluedMap<String, String> update(MultivaluedMap<String, String> incoming,
            MultivaluedMap<String, String> outgoing) {
        MultivaluedMap<String, String> headers = new MultivaluedHashMap<>();
        headers.putSingle(PlatformClaims.HEADER, signer.cachedServiceToken());
        // The public origin of the request being served, so that URLs the directory builds are public too.
        for (String name : FORWARDED) {
            String value = incoming == null ? null : incoming.getFirst(name);
            if (value != null) {
                headers.putSingle(name, value);
            }
        }
        return headers;
    }
}
