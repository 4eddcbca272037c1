package org.ziggurat.auth.grants;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.platform.http.PathIds;
import org.ziggurat.platform.http.PublicUrls;
import org.ziggurat.platform.token.Callers;

import java.util.List;

/** The applications the caller granted access (spec 4.1): one Grant per application. */
@Path("/applications/grants")
@Produces(MediaType.APPLICATION_JSON)
public class GrantsResource {

    private final Callers callers;
    private final GrantService grants;

    public GrantsResource(Callers callers, GrantService grants) {
        this.callers = callers;
        this.grants = grants;
    }

    @GET
    public Uni<List<GrantViews.Grant>> list(@Context UriInfo uri) {
        return callers.current().chain(c -> grants.grants(c.requireUser(), PublicUrls.of(uri)));
    }

    @GET
    @Path("/{id}")
    public Uni<GrantViews.Grant> get(@PathParam("id") String id, @Context UriInfo uri) {
        long grantId = PathIds.parse(id, "grant");
        return callers.current().chain(c -> grants.grant(c.requireUser(), grantId, PublicUrls.of(uri)));
    }

    /** Revoke access: every token of this application for the caller, and the remembered consent. */
    @DELETE
    @Path("/{id}")
    public Uni<Response> revoke(@PathParam("id") String id) {
        long grantId = PathIds.parse(id, "grant");
        return callers.current().chain(c -> grants.revokeGrant(c.requireUser(), grantId))
                .map(count -> Response.noContent().build());
    }
}
