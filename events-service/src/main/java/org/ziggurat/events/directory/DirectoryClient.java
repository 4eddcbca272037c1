package org.ziggurat.events.directory;

import io.quarkus.rest.client.reactive.ClientExceptionMapper;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.annotation.RegisterClientHeaders;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** directory-service's internal API: what a namespace is, and what one person may do in it. */
@RegisterRestClient(configKey = "directory")
@RegisterClientHeaders(ServiceTokenHeaders.class)
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
public interface DirectoryClient {

    record Namespace(String name, String kind, long id, String visibility, boolean read, boolean write, boolean admin) {
    }

    /** No such namespace. */
    class UnknownNamespace extends RuntimeException {
        public UnknownNamespace() {
            super("unknown namespace", null, false, false);
        }
    }

    @GET
    @Path("/namespaces/{name}")
    Uni<Namespace> namespace(@PathParam("name") String name, @QueryParam("person_id") long personId);

    @ClientExceptionMapper
    static RuntimeException toException(Response response) {
        return response.getStatus() == 404 ? new UnknownNamespace()
                : new IllegalStateException("directory-service answered " + response.getStatus());
    }
}
