package org.ziggurat.auth.endpoints;

import io.smallrye.mutiny.Multi;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NameBinding;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.ziggurat.auth.tokens.AccessTokenChanges;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The internal revocation feed (server-sent events) that every gateway replica follows, so that it
 * forgets its kept introspection answers of a revoked token within a second: {@code ready}, then
 * {@code changed} with the references of the tokens that changed ({@code *}: all), and a
 * {@code heartbeat} every second. Never routed by the gateway; for the clients that may introspect
 * any token (the gateway's own credentials), checked before the stream starts
 * ({@link RevocationFeedCallers}).
 */
@Path("/internal/revocation-feed")
public class RevocationFeedResource {

    /** Binds {@link RevocationFeedCallers} to the feed alone. */
    @NameBinding
    @Target({ElementType.TYPE, ElementType.METHOD})
    @Retention(RetentionPolicy.RUNTIME)
    public @interface Followers {
    }

    private final AccessTokenChanges changes;

    RevocationFeedResource(AccessTokenChanges changes) {
        this.changes = changes;
    }

    @Operation(hidden = true)
    @GET
    @Followers
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public Multi<OutboundSseEvent> follow(@Context Sse sse) {
        return changes.follow().map(event -> sse.newEventBuilder().name(event.name()).data(event.data()).build());
    }
}
