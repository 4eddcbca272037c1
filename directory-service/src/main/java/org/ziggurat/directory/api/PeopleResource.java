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

import org.ziggurat.directory.people.PeopleService;
import org.ziggurat.directory.people.PersonViews;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.directory.organizations.OrganizationService;
import org.ziggurat.directory.organizations.OrganizationViews;
import org.ziggurat.platform.rest.http.PublicUrls;
import org.ziggurat.platform.token.Callers;
import org.ziggurat.platform.rest.paging.PageLinks;
import org.ziggurat.platform.paging.PageRequest;

import java.net.URI;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

/** The directory of people (spec 4.4): public reads and sign-up. */
@Tag(name = "People", description = "The directory of people: public profiles, sign-up, avatars.")
@Path("/people")
@Produces(MediaType.APPLICATION_JSON)
public class PeopleResource {

    private final PeopleService service;
    private final OrganizationService organizations;
    private final Callers callers;

    PeopleResource(PeopleService service, OrganizationService organizations, Callers callers) {
        this.service = service;
        this.organizations = organizations;
        this.callers = callers;
    }

    @Operation(operationId = "listPeople", summary = "List people",
    description = "Every person, in order of sign-up, a page at a time (Link and X-Total-Count headers).")
    @SecurityRequirementsSet
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @APIResponse(responseCode = "200", description = "A page of people.", content = @Content(mediaType = "application/json",
    schema = @Schema(type = SchemaType.ARRAY, implementation = PersonViews.Person.class)))
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @GET
    public Uni<Response> list(@QueryParam("page") String page, @QueryParam("per_page") String perPage,
            @Context UriInfo uri) {
        PublicUrls urls = PublicUrls.of(uri);
        return PageLinks.countedPage(uri, PageRequest.of(page, perPage), service.count(),
                r -> service.page(r.offset(), r.limit()), row -> PersonViews.person(row, urls));
    }

    @Operation(operationId = "signUp", summary = "Sign up",
    description = "Creates a person's account. The password is at least 10 characters; the username must be free (409). "
    + "An address that has an account already is answered as a new one, and its owner is mailed instead: the answer "
    + "does not tell which addresses have an account.")
    @SecurityRequirementsSet
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = PeopleService.SignUp.class)))
    @APIResponse(responseCode = "201", description = "The new person.", headers = @Header(name = "Location",
    description = "The person's URL.", schema = @Schema(type = SchemaType.STRING)),
    content = @Content(mediaType = "application/json", schema = @Schema(implementation = PersonViews.Person.class)))
    @APIResponse(responseCode = "409", ref = ApiErrors.CONFLICT)
    @APIResponse(responseCode = "403", ref = ApiErrors.FORBIDDEN)
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> signUp(PeopleService.SignUp body, @Context UriInfo uri) {
        PublicUrls urls = PublicUrls.of(uri);
        return service.signUp(body).map(row -> Response.created(URI.create(urls.api("/people/" + row.username())))
                .entity(PersonViews.person(row, urls)).build());
    }

    @Operation(operationId = "getPerson", summary = "Get a person", description = "A person's public profile, without email.")
    @SecurityRequirementsSet
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @APIResponse(responseCode = "200", description = "The person.")
    @GET
    @Path("/{username}")
    public Uni<PersonViews.Person> get(@PathParam("username") String username, @Context UriInfo uri) {
        return service.named(username).map(row -> PersonViews.person(row, PublicUrls.of(uri)));
    }

    /** The person's organizations that the caller may see. */
    @Operation(operationId = "listPersonOrganizations", summary = "List a person's organizations",
    description = "The organizations in which the person is an active member that the caller may see: "
    + "private ones only to their members.")
    @SecurityRequirementsSet
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @APIResponse(responseCode = "200", description = "The person's organizations.")
    @GET
    @Path("/{username}/organizations")
    public Uni<List<OrganizationViews.Organization>> organizations(@PathParam("username") String username,
            @Context UriInfo uri) {
        PublicUrls urls = PublicUrls.of(uri);
        return service.named(username)
                .chain(person -> callers.current().chain(caller ->
                        organizations.ofPerson(person.id(), OrganizationService.viewer(caller))))
                .map(rows -> rows.stream().map(r -> OrganizationViews.organization(r, urls)).toList());
    }

    /** The uploaded avatar, or the generated default. The URL in a Person is versioned, so caches may keep it. */
    @Operation(operationId = "getPersonAvatar", summary = "Get a person's avatar",
    description = "The uploaded image, or a generated one. Cacheable for a day; the URL in a Person changes with the image.")
    @SecurityRequirementsSet
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @APIResponse(responseCode = "200", description = "The image.", content = {
    @Content(mediaType = "image/png", schema = @Schema(type = SchemaType.STRING, format = "binary")),
    @Content(mediaType = "image/jpeg", schema = @Schema(type = SchemaType.STRING, format = "binary"))})
    @GET
    @Path("/{username}/avatar")
    @Produces({"image/png", "image/jpeg"})
    public Uni<Response> avatar(@PathParam("username") String username) {
        return service.avatar(username)
                .map(avatar -> Response.ok(avatar.bytes(), avatar.type())
                        .header("Cache-Control", "public, max-age=86400")
                        .header("ETag", "\"" + etag(avatar.bytes()) + "\"")
                        .header("X-Content-Type-Options", "nosniff")
                        .build());
    }

    private static String etag(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 16);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
