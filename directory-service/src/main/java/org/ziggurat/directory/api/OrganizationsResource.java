package org.ziggurat.directory.api;

import org.ziggurat.directory.organizations.OrganizationRepository;
import org.ziggurat.directory.organizations.OrganizationService;
import org.ziggurat.directory.organizations.OrganizationViews;
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
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.directory.people.DefaultAvatars;
import org.ziggurat.directory.people.PersonViews;
import org.ziggurat.platform.http.PathIds;
import org.ziggurat.platform.http.PublicUrls;
import org.ziggurat.platform.paging.PageLinks;
import org.ziggurat.platform.paging.PageRequest;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;

import java.net.URI;
import java.util.List;

/** Organizations and their members (spec 4.5). */
@Path("/organizations")
@Produces(MediaType.APPLICATION_JSON)
public class OrganizationsResource {

    @Inject
    Callers callers;

    @Inject
    OrganizationRepository organizations;

    @Inject
    OrganizationService service;

    /** Newest first; private organizations only to their members. */
    @GET
    public Uni<Response> list(@QueryParam("page") String page, @QueryParam("per_page") String perPage,
            @Context UriInfo uri) {
        PageRequest request = PageRequest.of(page, perPage);
        PublicUrls urls = PublicUrls.of(uri);
        return callers.current().map(OrganizationService::viewer).chain(viewer -> PageLinks.countedPage(uri, request,
                organizations.countVisible(viewer), r -> organizations.newest(viewer, r.offset(), r.limit()),
                row -> OrganizationViews.organization(row, urls)));
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> create(JsonNode body, @Context UriInfo uri) {
        PublicUrls urls = PublicUrls.of(uri);
        return callers.current().chain(caller -> service.create(caller, body))
                .map(org -> Response.created(URI.create(urls.api("/organizations/" + org.id())))
                        .entity(OrganizationViews.organization(org, urls)).build());
    }

    @GET
    @Path("/{id}")
    public Uni<OrganizationViews.Organization> get(@PathParam("id") String id, @Context UriInfo uri) {
        long orgId = PathIds.parse(id, "organization");
        return callers.current().chain(caller -> service.visible(orgId, OrganizationService.viewer(caller)))
                .map(org -> OrganizationViews.organization(org, PublicUrls.of(uri)));
    }

    @PATCH
    @Path("/{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<OrganizationViews.Organization> update(@PathParam("id") String id, JsonNode body, @Context UriInfo uri) {
        long orgId = PathIds.parse(id, "organization");
        return callers.current().chain(caller -> service.update(caller, orgId, body))
                .map(org -> OrganizationViews.organization(org, PublicUrls.of(uri)));
    }

    @DELETE
    @Path("/{id}")
    public Uni<Response> delete(@PathParam("id") String id) {
        long orgId = PathIds.parse(id, "organization");
        return callers.current().chain(caller -> service.delete(caller, orgId)).map(v -> Response.noContent().build());
    }

    @GET
    @Path("/{id}/avatar")
    @Produces("image/png")
    public Uni<Response> avatar(@PathParam("id") String id) {
        long orgId = PathIds.parse(id, "organization");
        return callers.current().chain(caller -> service.visible(orgId, OrganizationService.viewer(caller)))
                .map(org -> Response.ok(DefaultAvatars.png(org.name()), "image/png")
                        .header("Cache-Control", "public, max-age=86400").build());
    }

    /** Active members, as Person objects. */
    @GET
    @Path("/{id}/members")
    public Uni<List<PersonViews.Person>> members(@PathParam("id") String id, @Context UriInfo uri) {
        long orgId = PathIds.parse(id, "organization");
        return callers.current().chain(caller -> service.visible(orgId, OrganizationService.viewer(caller)))
                .chain(org -> organizations.activeMembers(org.id()))
                .map(rows -> OrganizationViews.members(rows, PublicUrls.of(uri)));
    }

    /** 204 when the person is an active member, 404 when not. */
    @GET
    @Path("/{id}/members/{userId}")
    public Uni<Response> isMember(@PathParam("id") String id, @PathParam("userId") String userId) {
        long orgId = PathIds.parse(id, "organization");
        long personId = PathIds.parse(userId, "person");
        return callers.current().chain(caller -> service.visible(orgId, OrganizationService.viewer(caller)))
                .chain(org -> organizations.membership(orgId, personId))
                .map(m -> {
                    if (m == null || !m.isActive()) {
                        throw ProblemException.notFound("This person is not a member.");
                    }
                    return Response.noContent().build();
                });
    }

    @GET
    @Path("/{id}/memberships/{userId}")
    public Uni<OrganizationViews.Membership> membership(@PathParam("id") String id, @PathParam("userId") String userId,
            @Context UriInfo uri) {
        long orgId = PathIds.parse(id, "organization");
        long personId = PathIds.parse(userId, "person");
        return callers.current().chain(caller -> service.membership(caller, orgId, personId))
                .map(m -> OrganizationViews.membership(m, PublicUrls.of(uri)));
    }

    /** By an admin: invites the person ({@code pending}, 201) or changes their role (200). */
    @PUT
    @Path("/{id}/memberships/{userId}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> putMembership(@PathParam("id") String id, @PathParam("userId") String userId, JsonNode body,
            @Context UriInfo uri) {
        long orgId = PathIds.parse(id, "organization");
        long personId = PathIds.parse(userId, "person");
        PublicUrls urls = PublicUrls.of(uri);
        return callers.current().chain(caller -> service.putMembership(caller, orgId, personId, body))
                .map(change -> {
                    OrganizationViews.Membership view = OrganizationViews.membership(change.membership(), urls);
                    return (change.created() ? Response.created(URI.create(view.url())) : Response.ok()).entity(view).build();
                });
    }

    @DELETE
    @Path("/{id}/memberships/{userId}")
    public Uni<Response> removeMembership(@PathParam("id") String id, @PathParam("userId") String userId) {
        long orgId = PathIds.parse(id, "organization");
        long personId = PathIds.parse(userId, "person");
        return callers.current().chain(caller -> service.removeMembership(caller, orgId, personId))
                .map(v -> Response.noContent().build());
    }
}
