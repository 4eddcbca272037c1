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

    @Inject
    PlatformTokenSigner signer;

    @Override
    public MultivaluedMap<String, String> update(MultivaluedMap<String, String> incoming,
            MultivaluedMap<String, String> outgoing) {
        MultivaluedMap<String, String> headers = new MultivaluedHashMap<>();
        headers.putSingle(PlatformClaims.HEADER, signer.cachedServiceToken());
        return headers;
    }
}
