package org.ziggurat.directory.client;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.MultivaluedMap;
import org.eclipse.microprofile.rest.client.ext.ClientHeadersFactory;
import org.ziggurat.platform.token.PlatformTokenSigner;
import org.ziggurat.platform.token.ServiceCallHeaders;

/** Every call to another service carries auth-service's own platform token and the public origin. */
@ApplicationScoped
public class ServiceTokenHeaders implements ClientHeadersFactory {

    @Inject
    PlatformTokenSigner signer;

    @Override
    public MultivaluedMap<String, String> update(MultivaluedMap<String, String> incoming,
            MultivaluedMap<String, String> outgoing) {
        return ServiceCallHeaders.of(signer, incoming);
    }
}
