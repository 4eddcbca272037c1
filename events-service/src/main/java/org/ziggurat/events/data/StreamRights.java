package org.ziggurat.events.data;

import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.ziggurat.directory.client.NamespaceRights;
import org.ziggurat.platform.token.Callers;

/**
 * Settles who may read a stream before the stream starts. Once an SSE response has begun, a
 * refusal can no longer become a 404 problem; here, before the resource method, it still can.
 * The resolved namespace and the caller are handed to the resource as request properties (the
 * stream checks the caller's rights again while it is open).
 */
public class StreamRights {

    static final String NAMESPACE = "ziggurat.stream.namespace";
    static final String CALLER = "ziggurat.stream.caller";

    @Inject
    Callers callers;

    @Inject
    NamespaceRights rights;

    @ServerRequestFilter
    public Uni<Response> check(ContainerRequestContext request) {
        String path = request.getUriInfo().getPath();
        if (!path.endsWith("/data/events/stream")) {
            return Uni.createFrom().nullItem();
        }
        String namespace = request.getUriInfo().getPathParameters().getFirst("namespace");
        return callers.current().chain(caller -> rights.forReading(namespace, caller)
                .map(ns -> {
                    request.setProperty(NAMESPACE, ns);
                    request.setProperty(CALLER, caller);
                    return null;
                }));
    }
}
