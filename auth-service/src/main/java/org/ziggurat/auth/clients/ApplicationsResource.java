package org.ziggurat.auth.clients;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
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

import java.net.URI;
import java.util.List;

/** The caller's own applications (spec 4.3); managing them needs the {@code admin} scope. */
@Path("/applications")
@Produces(MediaType.APPLICATION_JSON)
public class ApplicationsResource {

    static final String ADMIN_SCOPE = "admin";

    @Inject
    Callers callers;

    @Inject
    ApplicationRepository applications;

    @Inject
    ApplicationService service;

    @GET
    public Uni<List<ApplicationViews.Application>> list(@Context UriInfo uri) {
        PublicUrls urls = PublicUrls.of(uri);
        return owner().chain(applications::listOwnedBy)
                .map(rows -> rows.stream().map(r -> ApplicationViews.of(r, null, urls)).toList());
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> create(JsonNode body, @Context UriInfo uri) {
        PublicUrls urls = PublicUrls.of(uri);
        return owner().chain(owner -> service.create(owner, body)).map(created -> {
            ApplicationViews.Application view = ApplicationViews.of(created.application(), created.secret(), urls);
            return Response.created(URI.create(view.url())).entity(view).header("Cache-Control", "no-store").build();
        });
    }

    @GET
    @Path("/{id}")
    public Uni<ApplicationViews.Application> get(@PathParam("id") String id, @Context UriInfo uri) {
        long appId = PathIds.parse(id, "application");
        return owner().chain(owner -> service.owned(appId, owner)).map(r -> ApplicationViews.of(r, null, PublicUrls.of(uri)));
    }

    @PATCH
    @Path("/{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<ApplicationViews.Application> patch(@PathParam("id") String id, JsonNode body, @Context UriInfo uri) {
        long appId = PathIds.parse(id, "application");
        return owner().chain(owner -> service.update(owner, appId, body, false))
                .map(r -> ApplicationViews.of(r, null, PublicUrls.of(uri)));
    }

    @PUT
    @Path("/{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<ApplicationViews.Application> put(@PathParam("id") String id, JsonNode body, @Context UriInfo uri) {
        long appId = PathIds.parse(id, "application");
        return owner().chain(owner -> service.update(owner, appId, body, true))
                .map(r -> ApplicationViews.of(r, null, PublicUrls.of(uri)));
    }

    /** Deleting revokes every token and code of the application. */
    @DELETE
    @Path("/{id}")
    public Uni<Response> delete(@PathParam("id") String id) {
        long appId = PathIds.parse(id, "application");
        return owner().chain(owner -> service.delete(owner, appId)).map(v -> Response.noContent().build());
    }

    /** A new secret, shown in this answer only; the old one stops working at once. */
    @POST
    @Path("/{id}/secret")
    public Uni<Response> resetSecret(@PathParam("id") String id, @Context UriInfo uri) {
        long appId = PathIds.parse(id, "application");
        return owner().chain(owner -> service.resetSecret(owner, appId))
                .map(c -> Response.ok(ApplicationViews.of(c.application(), c.secret(), PublicUrls.of(uri)))
                        .header("Cache-Control", "no-store").build());
    }

    private Uni<Long> owner() {
        return callers.current().map(c -> c.requireUserWithScope(ADMIN_SCOPE));
    }

}
