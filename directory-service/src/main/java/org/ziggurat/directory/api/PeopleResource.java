package org.ziggurat.directory.api;

import org.ziggurat.directory.people.DefaultAvatars;
import org.ziggurat.directory.people.PeopleRepository;
import org.ziggurat.directory.people.PeopleService;
import org.ziggurat.directory.people.PersonViews;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
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
import org.ziggurat.directory.organizations.OrganizationRepository;
import org.ziggurat.directory.organizations.OrganizationService;
import org.ziggurat.directory.organizations.OrganizationViews;
import org.ziggurat.platform.http.PublicUrls;
import org.ziggurat.platform.token.Callers;
import org.ziggurat.platform.paging.PageLinks;
import org.ziggurat.platform.paging.PageRequest;
import org.ziggurat.platform.problem.ProblemException;

import java.net.URI;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

/** The directory of people (spec 4.4): public reads and sign-up. */
@Path("/people")
@Produces(MediaType.APPLICATION_JSON)
public class PeopleResource {

    @Inject
    PeopleRepository people;

    @Inject
    PeopleService service;

    @Inject
    Callers callers;

    @Inject
    OrganizationRepository organizations;

    @GET
    public Uni<Response> list(@QueryParam("page") String page, @QueryParam("per_page") String perPage,
            @Context UriInfo uri) {
        PublicUrls urls = PublicUrls.of(uri);
        return PageLinks.countedPage(uri, PageRequest.of(page, perPage), people.count(),
                r -> people.page(r.offset(), r.limit()), row -> PersonViews.person(row, urls));
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> signUp(PeopleService.SignUp body, @Context UriInfo uri) {
        PublicUrls urls = PublicUrls.of(uri);
        return service.signUp(body).map(row -> Response.created(URI.create(urls.api("/people/" + row.username())))
                .entity(PersonViews.person(row, urls)).build());
    }

    @GET
    @Path("/{username}")
    public Uni<PersonViews.Person> get(@PathParam("username") String username, @Context UriInfo uri) {
        return people.byUsername(username)
                .onItem().ifNull().failWith(() -> ProblemException.notFound("No person is called '" + username + "'."))
                .map(row -> PersonViews.person(row, PublicUrls.of(uri)));
    }

    /** The person's organizations that the caller may see. */
    @GET
    @Path("/{username}/organizations")
    public Uni<List<OrganizationViews.Organization>> organizations(@PathParam("username") String username,
            @Context UriInfo uri) {
        PublicUrls urls = PublicUrls.of(uri);
        return people.byUsername(username)
                .onItem().ifNull().failWith(() -> ProblemException.notFound("No person is called '" + username + "'."))
                .chain(person -> callers.current().chain(caller ->
                        organizations.ofPerson(person.id(), OrganizationService.viewer(caller))))
                .map(rows -> rows.stream().map(r -> OrganizationViews.organization(r, urls)).toList());
    }

    /** The uploaded avatar, or the generated default. The URL in a Person is versioned, so caches may keep it. */
    @GET
    @Path("/{username}/avatar")
    @Produces({"image/png", "image/jpeg"})
    public Uni<Response> avatar(@PathParam("username") String username) {
        return people.byUsername(username)
                .onItem().ifNull().failWith(() -> ProblemException.notFound("No person is called '" + username + "'."))
                .chain(row -> row.hasAvatar()
                        ? people.avatar(row.username())
                        : Uni.createFrom().item(new PeopleRepository.Avatar(DefaultAvatars.png(row.username()), "image/png")))
                .onItem().ifNull().failWith(() -> ProblemException.notFound("No avatar."))
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
