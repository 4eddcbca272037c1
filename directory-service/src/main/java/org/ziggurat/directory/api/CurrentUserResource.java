package org.ziggurat.directory.api;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.platform.rest.openapi.ApiContract;
import org.ziggurat.platform.rest.openapi.ApiErrors;

import org.ziggurat.directory.people.PeopleService;
import org.ziggurat.directory.people.PersonRow;
import org.ziggurat.directory.people.PersonViews;
import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
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
import org.ziggurat.directory.organizations.MembershipBodies;
import org.ziggurat.directory.organizations.MembershipService;
import org.ziggurat.directory.organizations.OrganizationService;
import org.ziggurat.directory.organizations.OrganizationViews;
import org.ziggurat.platform.http.PathIds;
import org.ziggurat.platform.rest.http.PublicUrls;

import java.util.List;
import org.ziggurat.platform.token.Caller;
import org.ziggurat.platform.input.EdgeInput;
import org.ziggurat.platform.token.Callers;
import org.ziggurat.platform.token.ScopeNames;

/** The authenticated person (spec 4.4, {@code /user}). */
@Tag(name = "People")
@Path("/user")
@Produces(MediaType.APPLICATION_JSON)
public class CurrentUserResource {

    private final Callers callers;
    private final PeopleService service;
    private final OrganizationService organizationService;
    private final MembershipService memberships;

    CurrentUserResource(Callers callers, PeopleService service, OrganizationService organizationService,
            MembershipService memberships) {
        this.callers = callers;
        this.service = service;
        this.organizationService = organizationService;
        this.memberships = memberships;
    }

    @Operation(operationId = "getCurrentUser", summary = "Get the authenticated person",
    description = "The caller's own profile with its public email and website; with the user scope also the private "
    + "fields: the sign-in address, two-factor state, and given_name, family_name, locale, zoneinfo when set.")
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @APIResponse(responseCode = "200", description = "The caller.")
    @GET
    public Uni<PersonViews.CurrentUser> me(@Context UriInfo uri) {
        return callers.current().chain(caller -> service.self(caller)
                .map(row -> view(row, caller, uri)));
    }

    @Operation(operationId = "updateCurrentUser", summary = "Change the authenticated person's profile",
    description = "Changes the fields the body names: display_name; email (the public address, which may only be the "
    + "person's confirmed sign-in address; null removes it); and the standard profile claims given_name, family_name, "
    + "website (public), locale, zoneinfo (null removes each). 422 names each field at fault.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.USER)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = ProfileChange.class)))
    @APIResponse(responseCode = "200", description = "The changed profile.")
    @APIResponse(responseCode = "409", ref = ApiErrors.CONFLICT)
    @PATCH
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<PersonViews.CurrentUser> update(JsonNode body, @Context UriInfo uri) {
        EdgeInput<org.ziggurat.directory.people.ProfileChange> change =
                EdgeInput.read(() -> org.ziggurat.directory.people.ProfileChange.read(body));
        return callers.current().chain(caller -> service.updateProfile(caller, change)
                .map(row -> view(row, caller, uri)));
    }

    @Operation(operationId = "uploadAvatar", summary = "Upload the authenticated person's avatar",
    description = "A PNG or JPEG image as the request body, at most the platform's avatar size.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.USER)
    @RequestBody(required = true, content = {
    @Content(mediaType = "image/png", schema = @Schema(type = SchemaType.STRING, format = "binary")),
    @Content(mediaType = "image/jpeg", schema = @Schema(type = SchemaType.STRING, format = "binary")),
    @Content(mediaType = "application/octet-stream", schema = @Schema(type = SchemaType.STRING, format = "binary"))})
    @APIResponse(responseCode = "200", description = "The profile with the new avatar's URL.")
    @APIResponse(responseCode = "422", ref = ApiErrors.UNPROCESSABLE)
    @PUT
    @Path("/avatar")
    @Consumes({"image/png", "image/jpeg", MediaType.APPLICATION_OCTET_STREAM})
    public Uni<PersonViews.CurrentUser> uploadAvatar(byte[] image, @Context UriInfo uri) {
        return callers.current().chain(caller -> service.setAvatar(caller, image)
                .map(row -> view(row, caller, uri)));
    }

    /** Every organization in which the caller is an active member, private ones included. */
    @Operation(operationId = "listCurrentUserOrganizations", summary = "List the authenticated person's organizations",
    description = "Every organization in which the caller is an active member, private ones included.")
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @APIResponse(responseCode = "200", description = "The caller's organizations.")
    @GET
    @Path("/organizations")
    public Uni<List<OrganizationViews.Organization>> organizations(@Context UriInfo uri) {
        PublicUrls urls = PublicUrls.of(uri);
        return callers.current().chain(organizationService::ofCaller).map(rows -> rows.stream().map(r -> OrganizationViews.organization(r, urls)).toList());
    }

    /** Accepts an invitation: {@code {"state": "active"}}. */
    @Operation(operationId = "acceptMembership", summary = "Accept an invitation to an organization",
    description = "Sets the caller's pending membership to active: the body is {\"state\": \"active\"}.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = MembershipAcceptance.class)))
    @APIResponse(responseCode = "200", description = "The active membership.")
    @PATCH
    @Path("/memberships/organizations/{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<OrganizationViews.Membership> acceptMembership(@PathParam("id") String id, JsonNode body,
            @Context UriInfo uri) {
        long orgId = PathIds.parse(id, "organization");
        EdgeInput<String> acceptance = EdgeInput.read(() -> MembershipBodies.acceptance(body));
        return callers.current().chain(caller -> memberships.accept(caller, orgId, acceptance))
                .map(m -> OrganizationViews.membership(m, PublicUrls.of(uri)));
    }

    private static PersonViews.CurrentUser view(PersonRow row, Caller caller, UriInfo uri) {
        return PersonViews.currentUser(row, PublicUrls.of(uri), caller.hasScope(ScopeNames.USER));
    }

    /** The body of PATCH /user, for the API's description: the fields it may change. */
    @Schema(name = "ProfileChange", description = "The fields to change; those left out stay as they are.")
    record ProfileChange(@Schema(description = "The name shown for the person.", maxLength = 255) String displayName,
            @Schema(description = "The public email address: the sign-in address, once confirmed with the link mailed to it (anything else is 422); null removes it.", nullable = true, format = "email") String email,
            @Schema(description = "Given name(s) or first name(s), shown only to the person and the applications they allow the profile scope; null removes it.", nullable = true, maxLength = 255) String givenName,
            @Schema(description = "Surname(s) or last name(s), private as given_name; null removes it.", nullable = true, maxLength = 255) String familyName,
            @Schema(description = "The person's web page or blog, shown on the public profile: an absolute http or https URL without credentials or fragment; null removes it.", nullable = true, format = "uri", maxLength = 2048) String website,
            @Schema(description = "A BCP 47 language tag (en-GB, fr), private as given_name; null removes it.", nullable = true, maxLength = 35, example = "en-GB") String locale,
            @Schema(description = "A time zone of the tz database (Europe/Paris), private as given_name; null removes it.", nullable = true, example = "Europe/Paris") String zoneinfo) {
    }

    /** The body of PATCH /user/memberships/organizations/{id}. */
    @Schema(name = "MembershipAcceptance")
    record MembershipAcceptance(@Schema(required = true, enumeration = "active") String state) {
    }
}
