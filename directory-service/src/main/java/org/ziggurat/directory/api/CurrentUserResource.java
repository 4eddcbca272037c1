package org.ziggurat.directory.api;

import org.ziggurat.directory.people.PeopleRepository;
import org.ziggurat.directory.people.PeopleService;
import org.ziggurat.directory.people.PersonRow;
import org.ziggurat.directory.people.PersonViews;
import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.PathParam;
import org.ziggurat.directory.organizations.OrganizationRepository;
import org.ziggurat.directory.organizations.OrganizationService;
import org.ziggurat.directory.organizations.OrganizationViews;
import org.ziggurat.platform.http.PathIds;
import org.ziggurat.platform.http.PublicUrls;

import java.util.List;
import org.ziggurat.platform.token.Caller;
import org.ziggurat.platform.token.Callers;

/** The authenticated person (spec 4.4, {@code /user}). */
@Path("/user")
@Produces(MediaType.APPLICATION_JSON)
public class CurrentUserResource {

    /** The scope that shows and changes private profile data. */
    static final String USER_SCOPE = "user";

    @Inject
    Callers callers;

    @Inject
    PeopleRepository people;

    @Inject
    PeopleService service;

    @Inject
    OrganizationRepository organizations;

    @Inject
    OrganizationService organizationService;

    @GET
    public Uni<PersonViews.CurrentUser> me(@Context UriInfo uri) {
        return callers.current().chain(caller -> people.byId(caller.requireUser())
                .onItem().ifNull().failWith(PeopleService::gone)
                .map(row -> view(row, caller, uri)));
    }

    @PATCH
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<PersonViews.CurrentUser> update(JsonNode body, @Context UriInfo uri) {
        return callers.current().chain(caller -> service.updateProfile(caller.requireUserWithScope(USER_SCOPE), body)
                .map(row -> view(row, caller, uri)));
    }

    @PUT
    @Path("/avatar")
    @Consumes({"image/png", "image/jpeg", MediaType.APPLICATION_OCTET_STREAM})
    public Uni<PersonViews.CurrentUser> uploadAvatar(byte[] image, @Context UriInfo uri) {
        return callers.current().chain(caller -> service.setAvatar(caller.requireUserWithScope(USER_SCOPE), image)
                .map(row -> view(row, caller, uri)));
    }

    /** Every organization in which the caller is an active member, private ones included. */
    @GET
    @Path("/organizations")
    public Uni<List<OrganizationViews.Organization>> organizations(@Context UriInfo uri) {
        PublicUrls urls = PublicUrls.of(uri);
        return callers.current().chain(caller -> {
            long me = caller.requireUser();
            return organizations.ofPerson(me, me);
        }).map(rows -> rows.stream().map(r -> OrganizationViews.organization(r, urls)).toList());
    }

    /** Accepts an invitation: {@code {"state": "active"}}. */
    @PATCH
    @Path("/memberships/organizations/{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<OrganizationViews.Membership> acceptMembership(@PathParam("id") String id, JsonNode body,
            @Context UriInfo uri) {
        long orgId = PathIds.parse(id, "organization");
        return callers.current().chain(caller -> organizationService.accept(caller, orgId, body))
                .map(m -> OrganizationViews.membership(m, PublicUrls.of(uri)));
    }

    private static PersonViews.CurrentUser view(PersonRow row, Caller caller, UriInfo uri) {
        return PersonViews.currentUser(row, PublicUrls.of(uri), caller.hasScope(USER_SCOPE));
    }
}
