package org.ziggurat.directory.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
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
import org.ziggurat.directory.organizations.OrganizationViews;
import org.ziggurat.platform.http.PathIds;
import org.ziggurat.platform.input.EdgeInput;
import org.ziggurat.platform.permissions.UserPermissions;
import org.ziggurat.platform.rest.http.PublicUrls;

import java.util.List;
import java.util.Map;

/**
 * The internal API of the links between organizations and OAuth applications (auth-service, for
 * an application's owner): the link with the user permissions given, its removal, and the
 * organizations an application is linked to. Service tokens only, checked in {@link ApplicationLinks}.
 */
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
public class ApplicationLinksResource {

    @RegisterForReflection
    public record LinkedOrganization(OrganizationViews.Organization organization, JsonObject permissions) {
    }

    private final ApplicationLinks links;

    ApplicationLinksResource(ApplicationLinks links) {
        this.links = links;
    }

    /** Attaches an OAuth application to an organization with the user permissions its owner gave (201 new, 200 changed). */
    @PUT
    @Path("/organizations/{id}/applications/{clientId}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> putLink(@PathParam("id") String id, @PathParam("clientId") String clientId, JsonNode body) {
        long orgId = PathIds.parse(id, "organization");
        EdgeInput<JsonObject> permissions = EdgeInput.read(
                () -> UserPermissions.parse(body == null ? null : body.get("permissions"), "permissions").toJson());
        return links.attach(orgId, clientId, permissions)
                .map(created -> Response.status(created ? 201 : 200).entity(Map.of("organization_id", orgId,
                        "client_id", clientId, "permissions", permissions.get().getMap())).build());
    }

    @DELETE
    @Path("/organizations/{id}/applications/{clientId}")
    public Uni<Response> deleteLink(@PathParam("id") String id, @PathParam("clientId") String clientId) {
        long orgId = PathIds.parse(id, "organization");
        return links.detach(orgId, clientId).map(detached -> Response.noContent().build());
    }

    /** The organizations an application is attached to, with the permissions given to each. */
    @GET
    @Path("/applications/{clientId}/organizations")
    public Uni<List<LinkedOrganization>> linksOf(@PathParam("clientId") String clientId, @Context UriInfo uri) {
        PublicUrls urls = PublicUrls.of(uri);
        return links.of(clientId).map(linked -> linked.stream()
                .map(l -> new LinkedOrganization(OrganizationViews.organization(l.organization(), urls), l.permissions()))
                .toList());
    }
}
