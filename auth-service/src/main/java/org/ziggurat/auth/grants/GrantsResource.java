package org.ziggurat.auth.grants;

import org.ziggurat.platform.http.PathIds;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.logging.Logger;
import org.ziggurat.platform.http.PublicUrls;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;

import java.util.List;

/** The applications the caller granted access (spec 4.1): one Grant per application. */
@Path("/applications/grants")
@Produces(MediaType.APPLICATION_JSON)
public class GrantsResource {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    @Inject
    Callers callers;

    @Inject
    GrantRepository grants;

    @GET
    public Uni<List<GrantViews.Grant>> list(@Context UriInfo uri) {
        PublicUrls urls = PublicUrls.of(uri);
        return callers.current().chain(c -> grants.grants(c.requireUser()))
                .map(rows -> rows.stream().map(r -> GrantViews.grant(r, urls)).toList());
    }

    @GET
    @Path("/{id}")
    public Uni<GrantViews.Grant> get(@PathParam("id") String id, @Context UriInfo uri) {
        long grantId = PathIds.parse(id, "grant");
        return callers.current().chain(c -> grants.grant(c.requireUser(), grantId))
                .onItem().ifNull().failWith(() -> ProblemException.notFound("No such grant."))
                .map(r -> GrantViews.grant(r, PublicUrls.of(uri)));
    }

    /** Revoke access: every token of this application for the caller, and the remembered consent. */
    @DELETE
    @Path("/{id}")
    public Uni<Response> revoke(@PathParam("id") String id) {
        long grantId = PathIds.parse(id, "grant");
        return callers.current().chain(c -> {
            long person = c.requireUser();
            return grants.grant(person, grantId)
                    .onItem().ifNull().failWith(() -> ProblemException.notFound("No such grant."))
                    .chain(grant -> grants.revokeGrant(person, grant).invoke(count -> EVENTS.infof(
                            "event=grant_revoked client_id=%s person_id=%d revoked_tokens=%d", grant.clientId(), person, count)));
        }).map(count -> Response.noContent().build());
    }
}
