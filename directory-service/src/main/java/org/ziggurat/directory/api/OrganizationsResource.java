package org.ziggurat.directory.api;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirementsSet;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.platform.rest.openapi.ApiContract;
import org.ziggurat.platform.rest.openapi.ApiErrors;

import org.ziggurat.directory.organizations.OrganizationFields;
import org.ziggurat.directory.organizations.OrganizationService;
import org.ziggurat.directory.organizations.OrganizationViews;
import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
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
import org.ziggurat.platform.rest.http.PublicUrls;
import org.ziggurat.platform.rest.paging.PageLinks;
import org.ziggurat.platform.paging.PageRequest;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.input.EdgeInput;
import org.ziggurat.platform.token.Callers;

import java.net.URI;
import java.util.List;
import org.ziggurat.platform.token.ScopeNames;

/** Organizations and their members (spec 4.5); one membership is {@link MembershipsResource}'s. */
@Tag(name = "Organizations", description = "Organizations (teams), their members and memberships.")
@Path("/organizations")
@Produces(MediaType.APPLICATION_JSON)
public class OrganizationsResource {

    private final Callers callers;
    private final OrganizationService service;

    OrganizationsResource(Callers callers, OrganizationService service) {
        this.callers = callers;
        this.service = service;
    }

    /** Newest first; private organizations only to their members. */
    @Operation(operationId = "listOrganizations", summary = "List organizations",
    description = "Newest first, a page at a time (Link and X-Total-Count headers); private organizations only to their members.")
    @SecurityRequirementsSet
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @APIResponse(responseCode = "200", description = "A page of organizations.", content = @Content(mediaType = "application/json",
    schema = @Schema(type = SchemaType.ARRAY, implementation = OrganizationViews.Organization.class)))
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @GET
    public Uni<Response> list(@QueryParam("page") String page, @QueryParam("per_page") String perPage,
            @Context UriInfo uri) {
        PageRequest request = PageRequest.of(page, perPage);
        PublicUrls urls = PublicUrls.of(uri);
        return callers.current().map(OrganizationService::viewer).chain(viewer -> PageLinks.countedPage(uri, request,
                service.countVisible(viewer), r -> service.newest(viewer, r.offset(), r.limit()),
                row -> OrganizationViews.organization(row, urls)));
    }

    @Operation(operationId = "createOrganization", summary = "Create an organization",
    description = "The caller becomes its first admin. Its name is also its namespace, and cannot change.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = OrganizationSchemas.OrganizationInput.class)))
    @APIResponse(responseCode = "201", description = "The new organization.", headers = @Header(name = "Location",
    description = "The organization's URL.", schema = @Schema(type = SchemaType.STRING)),
    content = @Content(mediaType = "application/json", schema = @Schema(implementation = OrganizationViews.Organization.class)))
    @APIResponse(responseCode = "409", ref = ApiErrors.CONFLICT)
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> create(JsonNode body, @Context UriInfo uri) {
        PublicUrls urls = PublicUrls.of(uri);
        EdgeInput<OrganizationFields> fields = EdgeInput.read(() -> OrganizationFields.forCreate(body));
        return callers.current().chain(caller -> service.create(caller, fields))
                .map(org -> Response.created(URI.create(urls.api("/organizations/" + org.id())))
                        .entity(OrganizationViews.organization(org, urls)).build());
    }

    @Operation(operationId = "getOrganization", summary = "Get an organization",
    description = "A private organization is visible to its members only; to anyone else it is 404.")
    @SecurityRequirementsSet
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @APIResponse(responseCode = "200", description = "The organization.")
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @GET
    @Path("/{id}")
    public Uni<OrganizationViews.Organization> get(@PathParam("id") String id, @Context UriInfo uri) {
        long orgId = PathIds.parse(id, "organization");
        return callers.current().chain(caller -> service.visible(orgId, OrganizationService.viewer(caller)))
                .map(org -> OrganizationViews.organization(org, PublicUrls.of(uri)));
    }

    @Operation(operationId = "updateOrganization", summary = "Change an organization",
    description = "By an admin of the organization: display_name and visibility. The name cannot change.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = OrganizationSchemas.OrganizationChange.class)))
    @APIResponse(responseCode = "200", description = "The changed organization.")
    @PATCH
    @Path("/{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<OrganizationViews.Organization> update(@PathParam("id") String id, JsonNode body, @Context UriInfo uri) {
        long orgId = PathIds.parse(id, "organization");
        EdgeInput<OrganizationFields> fields = EdgeInput.read(() -> OrganizationFields.forChange(body));
        return callers.current().chain(caller -> service.update(caller, orgId, fields))
                .map(org -> OrganizationViews.organization(org, PublicUrls.of(uri)));
    }

    @Operation(operationId = "deleteOrganization", summary = "Delete an organization",
    description = "By an admin of the organization; its memberships and application links go with it.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @APIResponse(responseCode = "204", description = "Deleted.")
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @DELETE
    @Path("/{id}")
    public Uni<Response> delete(@PathParam("id") String id) {
        long orgId = PathIds.parse(id, "organization");
        return callers.current().chain(caller -> service.delete(caller, orgId)).map(v -> Response.noContent().build());
    }

    @Operation(operationId = "getOrganizationAvatar", summary = "Get an organization's avatar",
    description = "A generated PNG image, cacheable for a day.")
    @SecurityRequirementsSet
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @APIResponse(responseCode = "200", description = "The image.", content = @Content(mediaType = "image/png",
    schema = @Schema(type = SchemaType.STRING, format = "binary")))
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
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
    @Operation(operationId = "listOrganizationMembers", summary = "List an organization's members",
    description = "Its active members, as people.")
    @SecurityRequirementsSet
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @APIResponse(responseCode = "200", description = "The members.")
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @GET
    @Path("/{id}/members")
    public Uni<List<PersonViews.Person>> members(@PathParam("id") String id, @Context UriInfo uri) {
        long orgId = PathIds.parse(id, "organization");
        return callers.current().chain(caller -> service.activeMembers(orgId, OrganizationService.viewer(caller)))
                .map(rows -> OrganizationViews.members(rows, PublicUrls.of(uri)));
    }

    /** 204 when the person is an active member, 404 when not. */
    @Operation(operationId = "checkOrganizationMember", summary = "Check whether a person is a member",
    description = "204 when the person is an active member, 404 when not (or when the organization is not visible).")
    @SecurityRequirementsSet
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @APIResponse(responseCode = "204", description = "The person is an active member.")
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @GET
    @Path("/{id}/members/{userId}")
    public Uni<Response> isMember(@PathParam("id") String id, @PathParam("userId") String userId) {
        MemberPath path = MemberPath.of(id, userId);
        return callers.current().chain(caller -> service.hasActiveMember(path.orgId(), path.personId(),
                        OrganizationService.viewer(caller)))
                .map(active -> {
                    if (!active) {
                        throw ProblemException.notFound("This person is not a member.");
                    }
                    return Response.noContent().build();
                });
    }
}
