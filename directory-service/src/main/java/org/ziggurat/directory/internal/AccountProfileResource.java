package org.ziggurat.directory.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.directory.people.EmailAddresses;
import org.ziggurat.directory.people.ProfileChange;
import org.ziggurat.platform.http.PathIds;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.rest.http.PublicUrls;

/** The internal API of the account page's profile (auth-service): service tokens only, checked in {@link AccountProfiles}. */
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
public class AccountProfileResource {

    @RegisterForReflection
    public record NewEmail(String email, String clientAddress) {
    }

    private final AccountProfiles profiles;

    AccountProfileResource(AccountProfiles profiles) {
        this.profiles = profiles;
    }

    @GET
    @Path("/people/{id}/profile")
    public Uni<AccountProfiles.AccountProfile> profile(@PathParam("id") String id, @Context UriInfo uri) {
        return profiles.profile(PathIds.parse(id, "person"), PublicUrls.of(uri));
    }

    /**
     * As PATCH /user: display_name, email (the public address: the verified sign-in address, or null),
     * and given_name, family_name, website, locale, zoneinfo (null removes each).
     */
    @PATCH
    @Path("/people/{id}/profile")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<AccountProfiles.AccountProfile> change(@PathParam("id") String id, JsonNode body, @Context UriInfo uri) {
        long personId = PathIds.parse(id, "person");
        ProfileChange change = ProfileChange.read(body);
        return profiles.change(personId, change, PublicUrls.of(uri));
    }

    /** A new avatar from the account page: the image's bytes (PNG or JPEG). */
    @PUT
    @Path("/people/{id}/avatar")
    @Consumes({"image/png", "image/jpeg", MediaType.APPLICATION_OCTET_STREAM})
    public Uni<AccountProfiles.AccountProfile> setAvatar(@PathParam("id") String id, byte[] image, @Context UriInfo uri) {
        return profiles.setAvatar(PathIds.parse(id, "person"), image, PublicUrls.of(uri));
    }

    /** A new sign-in address, after auth-service checked the password: a link to prove it, a notice to the old one. */
    @PUT
    @Path("/people/{id}/email")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<EmailAddresses.Changed> changeEmail(@PathParam("id") String id, NewEmail body) {
        long personId = PathIds.parse(id, "person");
        if (body == null) {
            throw ProblemException.badRequest("A JSON body is required.");
        }
        return profiles.changeEmail(personId, body.email(), body.clientAddress());
    }

    /** 202: a new link to prove the address is on its way; 409 when the address is proven already. */
    @POST
    @Path("/people/{id}/email-verification-mails")
    public Uni<Response> resendVerification(@PathParam("id") String id) {
        return profiles.resendVerification(PathIds.parse(id, "person")).map(done -> Response.accepted().build());
    }
}
