package org.ziggurat.auth.grants;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.platform.http.PathIds;
import org.ziggurat.platform.http.PublicUrls;
import org.ziggurat.platform.token.Callers;

import java.util.List;

/** The caller's authorizations (spec 4.1): one per live access token. */
@Path("/authorizations")
@Produces(MediaType.APPLICATION_JSON)
public class AuthorizationsResource {

    private final Callers callers;
    private final GrantService grants;

    public AuthorizationsResource(Callers callers, GrantService grants) {
        this.callers = callers;
        this.grants = grants;
    }

    @GET
    public Uni<List<GrantViews.Authorization>> list(@Context UriInfo uri) {
        return callers.current().chain(c -> grants.authorizations(c.requireUser(), PublicUrls.of(uri)));
    }

    @GET
    @Path("/{id}")
    public Uni<GrantViews.Authorization> get(@PathParam("id") String id, @Context UriInfo uri) {
        long tokenId = PathIds.parse(id, "authorization");
        return callers.current().chain(c -> grants.authorization(c.requireUser(), tokenId, PublicUrls.of(uri)));
    }

    /** The caller's existing authorization for one application ({@link GrantService#forClient}). */
    @GET
    @Path("/clients/{clientId}")
    public Uni<GrantViews.Authorization> forClient(@PathParam("clientId") String clientId, @Context UriInfo uri) {
        if (!GrantService.couldBeClientId(clientId)) {
            throw GrantService.noAuthorizationFor();
        }
        return callers.current().chain(c -> grants.forClient(c.requireUser(), c.clientId(), clientId, PublicUrls.of(uri)));
    }
}
