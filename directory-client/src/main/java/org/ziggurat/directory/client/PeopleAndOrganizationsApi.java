package org.ziggurat.directory.client;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.List;

/**
 * The part of directory-service's internal API that tells who and what exists: namespaces and a
 * person's rights in them, people and their claims, organizations, their admins' notices, and the
 * organizations an application is linked to. Called through {@link DirectoryClient}.
 */
@Produces(MediaType.APPLICATION_JSON)
public interface PeopleAndOrganizationsApi extends DirectoryFailures {

    /**
     * A namespace and what the person ({@code 0}: anonymous) may do in it, having signed in with
     * a second factor or not; {@link NotFound} if none has the name.
     */
    @GET
    @Path("/namespaces/{name}")
    Uni<Namespace> namespace(@PathParam("name") String name, @QueryParam("person_id") long personId,
            @QueryParam("second_factor_sign_in") boolean secondFactorSignIn);

    @GET
    @Path("/people")
    Uni<List<PersonSummary>> people(@QueryParam("ids") String ids);

    /** A person as the directory's internal API returns them. */
    @RegisterForReflection
    record PersonSummary(long id, String username, String displayName,
            @JsonProperty("image_thumb_50") String imageThumb50, String url,
            String htmlUrl, String email) {
    }

    /** A notice to a namespace's admins, by mail (the directory's outbox): its kind names what it tells of. */
    @RegisterForReflection
    record AdminNotice(String kind, String subject, String body) {
    }

    /** Queues the notice for every admin of the namespace (202); {@link NotFound} if none has the name. */
    @POST
    @Path("/namespaces/{name}/admin-notices")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> noticeAdmins(@PathParam("name") String name, AdminNotice notice);

    /**
     * What a relying party may learn of a person (OpenID Connect's profile and email scopes); the
     * standard profile claims the person gave (given_name to zoneinfo) are null when not given.
     */
    @RegisterForReflection
    record OpenIdPerson(long id, String username, String displayName, String picture, String htmlUrl, String email,
            java.time.Instant updatedAt, boolean emailVerified, Research research, String givenName, String familyName,
            String website, String locale, String zoneinfo) {
    }

    /**
     * The research claims ({@code research=true}): memberships as AARC-G069 entitlements (only of
     * the organizations whose own API would let the sign-in in), the ORCID iD of linked identities,
     * the persistent voperson id. ({@code assurance}: none; the sign-in's own is auth-service's.)
     */
    @RegisterForReflection
    record Research(List<String> entitlements, String orcid, List<String> assurance, String vopersonId) {
    }

    /** {@link NotFound} when no person has the id; with the research claims when {@code research}. */
    @GET
    @Path("/people/{id}/claims")
    Uni<OpenIdPerson> claims(@PathParam("id") long personId, @QueryParam("research") boolean research);

    /**
     * The same, for a sign-in with a second factor or not ({@code secondFactorSignIn}): the
     * entitlements of an organization that requires one come only with a sign-in that used one.
     */
    @GET
    @Path("/people/{id}/claims")
    Uni<OpenIdPerson> claims(@PathParam("id") long personId, @QueryParam("research") boolean research,
            @QueryParam("second_factor_sign_in") boolean secondFactorSignIn);

    @RegisterForReflection
    record OrganizationOfPerson(long id, String name, String role) {
    }

    @GET
    @Path("/people/{id}/organizations")
    Uni<List<OrganizationOfPerson>> organizationsOf(@PathParam("id") long personId);

    /** The directory's Organization object, passed on as it is, and the permissions recorded with the link. */
    @RegisterForReflection
    record LinkedOrganization(JsonNode organization,
            JsonNode permissions) {
    }

    @GET
    @Path("/applications/{clientId}/organizations")
    Uni<List<LinkedOrganization>> linkedOrganizations(@PathParam("clientId") String clientId);

    @RegisterForReflection
    record LinkPermissions(JsonObject permissions) {
    }

    @PUT
    @Path("/organizations/{id}/applications/{clientId}")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> link(@PathParam("id") long organizationId, @PathParam("clientId") String clientId,
            LinkPermissions permissions);

    @DELETE
    @Path("/organizations/{id}/applications/{clientId}")
    Uni<Response> unlink(@PathParam("id") long organizationId, @PathParam("clientId") String clientId);
}
