package org.ziggurat.events.streams;

import org.ziggurat.events.data.EventService;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.ziggurat.platform.token.Callers;

/**
 * Settles who may read a stream before the stream starts. Once an SSE response has begun, a
 * refusal can no longer become a 404 problem; here, before the resource method, it still can.
 * The resolved namespace and the caller are handed to the resource as request properties (the
 * stream checks the caller's rights again while it is open). Bound to the stream alone by
 * {@link StreamReaders}, not by matching paths.
 */
public class StreamRights {

    static final String NAMESPACE = "ziggurat.stream.namespace";
    static final String CALLER = "ziggurat.stream.caller";

    private final Callers callers;
    private final EventService events;

    StreamRights(Callers callers, EventService events) {
        this.callers = callers;
        this.events = events;
    }

    @ServerRequestFilter
    @StreamReaders
    public Uni<Response> check(ContainerRequestContext request) {
        String namespace = request.getUriInfo().getPathParameters().getFirst("namespace");
        return callers.current().chain(caller -> events.readable(namespace, caller)
                .map(ns -> {
                    request.setProperty(NAMESPACE, ns);
                    request.setProperty(CALLER, caller);
                    return null;
                }));
    }
}
