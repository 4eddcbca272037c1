package org.ziggurat.auth.grants;

import io.quarkus.runtime.annotations.RegisterForReflection;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.platform.rest.openapi.ApiContract;
import org.ziggurat.platform.rest.openapi.ApiErrors;

import org.ziggurat.auth.clients.AccessorRepository;
import org.ziggurat.platform.http.PathIds;
import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.ziggurat.platform.permissions.UserPermissions;
import org.ziggurat.platform.problem.ProblemException;

import java.util.List;
import java.util.Map;
import org.ziggurat.platform.token.ScopeNames;

/**
 * User permissions that an application's owner gives people and organizations. An
 * organization's grant is recorded in the directory too, so that the Organization's
 * {@code oauth_application_uids} shows the application.
 */
@Tag(name = "Applications")
@Path("/applications/{id}/accessors")
@Produces(MediaType.APPLICATION_JSON)
public class AccessorsResource {

    private final AccessorService service;

    AccessorsResource(AccessorService service) {
        this.service = service;
    }

    @Schema(name = "Accessor")
    @RegisterForReflection
    public record Entry(long id, GrantViews.Permissions permissions) {
    }

    @Operation(operationId = "listApplicationAccessors", summary = "List an application's accessors",
    description = "The user permissions the application's owner gave people and organizations.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @APIResponse(responseCode = "200", description = "People and organizations with their permissions.",
    content = @Content(mediaType = "application/json", schema = @Schema(implementation = AccessorList.class)))
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @GET
    public Uni<Map<String, List<Entry>>> list(@PathParam("id") String id) {
        return service.list(PathIds.parse(id, "application")).map(all -> Map.of(
                "people", entries(all.people()), "organizations", entries(all.organizations())));
    }

    @Operation(operationId = "putPersonAccessor", summary = "Give a person permissions on an application",
    description = "Permissions left out are false. 201 when the person had none, 200 when they changed.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = GrantViews.Permissions.class)))
    @APIResponse(responseCode = "200", description = "The changed permissions.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = Entry.class)))
    @APIResponse(responseCode = "201", description = "The new permissions.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = Entry.class)))
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @PUT
    @Path("/people/{userId}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> putPerson(@PathParam("id") String id, @PathParam("userId") String userId, JsonNode body) {
        long person = PathIds.parse(userId, "person");
        UserPermissions permissions = UserPermissions.parse(body, "");
        return service.putPerson(PathIds.parse(id, "application"), person, permissions).map(created -> Response.status(created ? 201 : 200).entity(new Entry(person, GrantViews.permissions(permissions))).build());
    }

    @Operation(operationId = "deletePersonAccessor", summary = "Take a person's permissions on an application away")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @APIResponse(responseCode = "204", description = "Taken away.")
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @DELETE
    @Path("/people/{userId}")
    public Uni<Response> deletePerson(@PathParam("id") String id, @PathParam("userId") String userId) {
        long person = PathIds.parse(userId, "person");
        return service.deletePerson(PathIds.parse(id, "application"), person).map(AccessorsResource::gone);
    }

    /**
     * Only an active admin of the organization may attach an application to it: an application
     * owner who does not manage it gets the same 404 as for an organization that does not exist,
     * so the answer tells nothing of private organizations.
     */
    @Operation(operationId = "putOrganizationAccessor", summary = "Give an organization permissions on an application",
    description = "By an admin of the organization who owns the application; the organization then lists the "
    + "application in oauth_application_uids. 201 when it had none, 200 when they changed.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = GrantViews.Permissions.class)))
    @APIResponse(responseCode = "200", description = "The changed permissions.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = Entry.class)))
    @APIResponse(responseCode = "201", description = "The new permissions.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = Entry.class)))
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @PUT
    @Path("/organizations/{orgId}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> putOrganization(@PathParam("id") String id, @PathParam("orgId") String orgId, JsonNode body) {
        long appId = PathIds.parse(id, "application");
        long organization = PathIds.parse(orgId, "organization");
        UserPermissions permissions = UserPermissions.parse(body, "");
        return service.putOrganization(appId, organization, permissions).map(created -> Response.status(created ? 201 : 200)
                .entity(new Entry(organization, GrantViews.permissions(permissions))).build());
    }

    @Operation(operationId = "deleteOrganizationAccessor", summary = "Take an organization's permissions on an application away")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @APIResponse(responseCode = "204", description = "Taken away.")
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @DELETE
    @Path("/organizations/{orgId}")
    public Uni<Response> deleteOrganization(@PathParam("id") String id, @PathParam("orgId") String orgId) {
        long organization = PathIds.parse(orgId, "organization");
        return service.deleteOrganization(PathIds.parse(id, "application"), organization).map(AccessorsResource::gone);
    }

    private static List<Entry> entries(List<AccessorRepository.Accessor> accessors) {
        return accessors.stream().map(a -> new Entry(a.subjectId(), GrantViews.permissions(a.permissions()))).toList();
    }

    private static Response gone(boolean deleted) {
        if (!deleted) {
            throw ProblemException.notFound("No such permission entry.");
        }
        return Response.noContent().build();
    }

    /** The answer of GET, for the API's description. */
    @Schema(name = "ApplicationAccessors")
    record AccessorList(@Schema(required = true) List<Entry> people, @Schema(required = true) List<Entry> organizations) {
    }
}
