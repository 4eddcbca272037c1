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
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;
import org.ziggurat.auth.clients.ApplicationRow;
import org.ziggurat.auth.clients.ApplicationService;
import org.ziggurat.directory.client.DirectoryClient;
import org.ziggurat.platform.permissions.UserPermissions;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;

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

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final Callers callers;
    private final ApplicationService applications;
    private final AccessorRepository accessors;
    private final DirectoryClient directory;

    AccessorsResource(Callers callers, ApplicationService applications, AccessorRepository accessors,
            @RestClient DirectoryClient directory) {
        this.callers = callers;
        this.applications = applications;
        this.accessors = accessors;
        this.directory = directory;
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
    @APIResponse(responseCode = "401", ref = ApiErrors.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiErrors.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiErrors.NOT_FOUND)
    @GET
    public Uni<Map<String, List<Entry>>> list(@PathParam("id") String id) {
        return owned(id).chain(app -> accessors.ofApplication(app.id())).map(all -> Map.of(
                "people", entries(all, AccessorRepository.PERSON),
                "organizations", entries(all, AccessorRepository.ORGANIZATION)));
    }

    @Operation(operationId = "putPersonAccessor", summary = "Give a person permissions on an application",
    description = "Permissions left out are false. 201 when the person had none, 200 when they changed.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = GrantViews.Permissions.class)))
    @APIResponse(responseCode = "200", description = "The changed permissions.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = Entry.class)))
    @APIResponse(responseCode = "201", description = "The new permissions.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = Entry.class)))
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiErrors.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiErrors.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiErrors.NOT_FOUND)
    @APIResponse(responseCode = "422", ref = ApiErrors.UNPROCESSABLE)
    @PUT
    @Path("/people/{userId}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> putPerson(@PathParam("id") String id, @PathParam("userId") String userId, JsonNode body) {
        long person = PathIds.parse(userId, "person");
        UserPermissions permissions = UserPermissions.parse(body, "");
        return owned(id).chain(app -> directory.people(Long.toString(person)).chain(found -> {
            if (found.isEmpty()) {
                throw ProblemException.notFound("No person has id " + person + ".");
            }
            return accessors.put(app.id(), AccessorRepository.PERSON, person, permissions)
                    .invoke(created -> EVENTS.infof("event=permissions_given client_id=%s person_id=%d", app.clientId(), person));
        })).map(created -> Response.status(created ? 201 : 200).entity(new Entry(person, GrantViews.permissions(permissions))).build());
    }

    @Operation(operationId = "deletePersonAccessor", summary = "Take a person's permissions on an application away")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @APIResponse(responseCode = "204", description = "Taken away.")
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiErrors.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiErrors.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiErrors.NOT_FOUND)
    @DELETE
    @Path("/people/{userId}")
    public Uni<Response> deletePerson(@PathParam("id") String id, @PathParam("userId") String userId) {
        long person = PathIds.parse(userId, "person");
        return owned(id).chain(app -> accessors.delete(app.id(), AccessorRepository.PERSON, person)).map(AccessorsResource::gone);
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
    @APIResponse(responseCode = "401", ref = ApiErrors.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiErrors.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiErrors.NOT_FOUND)
    @APIResponse(responseCode = "422", ref = ApiErrors.UNPROCESSABLE)
    @PUT
    @Path("/organizations/{orgId}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> putOrganization(@PathParam("id") String id, @PathParam("orgId") String orgId, JsonNode body) {
        long appId = PathIds.parse(id, "application");
        long organization = PathIds.parse(orgId, "organization");
        UserPermissions permissions = UserPermissions.parse(body, "");
        ProblemException unknown = ProblemException.notFound("No organization has id " + organization
                + " that you manage.");
        return callers.current().chain(c -> {
            long person = c.requireUserWithScope(ScopeNames.ADMIN);
            return applications.owned(appId, person).chain(app -> directory.organizationsOf(person).chain(managed -> {
                if (managed.stream().noneMatch(o -> o.id() == organization && "admin".equals(o.role()))) {
                    throw unknown;
                }
                return directory.link(organization, app.clientId(), new DirectoryClient.LinkPermissions(permissions.toJson()))
                        .onFailure(DirectoryClient.NotFound.class).transform(e -> unknown)
                        .chain(() -> accessors.put(app.id(), AccessorRepository.ORGANIZATION, organization, permissions))
                        .invoke(created -> EVENTS.infof("event=permissions_given client_id=%s organization_id=%d",
                                app.clientId(), organization));
            }));
        }).map(created -> Response.status(created ? 201 : 200)
                .entity(new Entry(organization, GrantViews.permissions(permissions))).build());
    }

    @Operation(operationId = "deleteOrganizationAccessor", summary = "Take an organization's permissions on an application away")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @APIResponse(responseCode = "204", description = "Taken away.")
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiErrors.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiErrors.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiErrors.NOT_FOUND)
    @DELETE
    @Path("/organizations/{orgId}")
    public Uni<Response> deleteOrganization(@PathParam("id") String id, @PathParam("orgId") String orgId) {
        long organization = PathIds.parse(orgId, "organization");
        return owned(id).chain(app -> accessors.delete(app.id(), AccessorRepository.ORGANIZATION, organization)
                .call(deleted -> directory.unlink(organization, app.clientId())
                        .onFailure(DirectoryClient.NotFound.class).recoverWithNull()))
                .map(AccessorsResource::gone);
    }

    private Uni<ApplicationRow> owned(String id) {
        long appId = PathIds.parse(id, "application");
        return callers.current().chain(c -> applications.owned(appId, c.requireUserWithScope(ScopeNames.ADMIN)));
    }

    private static List<Entry> entries(List<AccessorRepository.Accessor> all, String kind) {
        return all.stream().filter(a -> a.kind().equals(kind))
                .map(a -> new Entry(a.subjectId(), GrantViews.permissions(a.permissions()))).toList();
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
