package org.ziggurat.directory.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.directory.organizations.MembershipBodies;
import org.ziggurat.directory.organizations.MembershipService;
import org.ziggurat.directory.organizations.OrganizationViews;
import org.ziggurat.platform.input.EdgeInput;
import org.ziggurat.platform.rest.http.PublicUrls;
import org.ziggurat.platform.rest.openapi.ApiContract;
import org.ziggurat.platform.rest.openapi.ApiErrors;
import org.ziggurat.platform.token.Callers;
import org.ziggurat.platform.token.ScopeNames;

import java.net.URI;

/** One person's membership of an organization (spec 4.5): seen, invited or changed, removed. */
@Tag(name = "Organizations")
@Path("/organizations/{id}/memberships/{userId}")
@Produces(MediaType.APPLICATION_JSON)
public class MembershipsResource {

    private final Callers callers;
    private final MembershipService memberships;

    MembershipsResource(Callers callers, MembershipService memberships) {
        this.callers = callers;
        this.memberships = memberships;
    }

    @Operation(operationId = "getMembership", summary = "Get a membership",
    description = "Visible to the organization's members and to the person it names.")
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @APIResponse(responseCode = "200", description = "The membership.")
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @GET
    public Uni<OrganizationViews.Membership> membership(@PathParam("id") String id, @PathParam("userId") String userId,
            @Context UriInfo uri) {
        MemberPath path = MemberPath.of(id, userId);
        return callers.current().chain(caller -> memberships.membership(caller, path.orgId(), path.personId()))
                .map(m -> OrganizationViews.membership(m, PublicUrls.of(uri)));
    }

    /** By an admin: invites the person ({@code pending}, 201) or changes their role (200). */
    @Operation(operationId = "putMembership", summary = "Invite a person or change their role",
    description = "By an admin: a person who is not a member is invited (state pending, 201) until they accept; "
    + "a member's role changes (200). The last active admin cannot step down.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = OrganizationSchemas.MembershipInput.class)))
    @APIResponse(responseCode = "200", description = "The changed membership.", content = @Content(mediaType = "application/json",
    schema = @Schema(implementation = OrganizationViews.Membership.class)))
    @APIResponse(responseCode = "201", description = "The invitation.", headers = @Header(name = "Location",
    description = "The membership's URL.", schema = @Schema(type = SchemaType.STRING)),
    content = @Content(mediaType = "application/json", schema = @Schema(implementation = OrganizationViews.Membership.class)))
    @APIResponse(responseCode = "409", ref = ApiErrors.CONFLICT)
    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> putMembership(@PathParam("id") String id, @PathParam("userId") String userId, JsonNode body,
            @Context UriInfo uri) {
        MemberPath path = MemberPath.of(id, userId);
        PublicUrls urls = PublicUrls.of(uri);
        EdgeInput<String> role = EdgeInput.read(() -> MembershipBodies.role(body));
        return callers.current().chain(caller -> memberships.putMembership(caller, path.orgId(), path.personId(), role))
                .map(change -> {
                    OrganizationViews.Membership view = OrganizationViews.membership(change.membership(), urls);
                    return (change.created() ? Response.created(URI.create(view.url())) : Response.ok()).entity(view).build();
                });
    }

    @Operation(operationId = "removeMembership", summary = "Remove a member",
    description = "By an admin, or by the member themself. The last active admin cannot be removed.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @APIResponse(responseCode = "204", description = "Removed.")
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @APIResponse(responseCode = "409", ref = ApiErrors.CONFLICT)
    @DELETE
    public Uni<Response> removeMembership(@PathParam("id") String id, @PathParam("userId") String userId) {
        MemberPath path = MemberPath.of(id, userId);
        return callers.current().chain(caller -> memberships.removeMembership(caller, path.orgId(), path.personId()))
                .map(v -> Response.noContent().build());
    }
}
