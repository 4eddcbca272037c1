package org.ziggurat.directory.internal;

import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.ziggurat.directory.identities.IdentitySignUps;
import org.ziggurat.directory.identities.LinkedIdentities;
import org.ziggurat.directory.identities.LinkedIdentityRepository;
import org.ziggurat.platform.http.PathIds;
import org.ziggurat.platform.problem.ProblemException;

import java.util.List;

/**
 * What auth-service asks of the identities people link (service tokens only): who an upstream
 * identity signs in, a new account made with one, a link for a person auth-service signed in,
 * the links of a person and their removal, and the person's setting for their own second factor.
 */
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
public class LinkedIdentitiesResource {

    /** An identity to link, and the address of the browser that asked, for the security log. */
    @RegisterForReflection
    public record IdentityLink(LinkedIdentities.UpstreamIdentity identity, String clientAddress) {
    }

    /** The new person; or, {@code confirmationMailed}, none yet: a link went to the address (id 0). */
    @RegisterForReflection
    public record NewAccountPerson(long id, String username, boolean emailVerified, boolean confirmationMailed) {
    }

    /** A mailed link's token. */
    @RegisterForReflection
    public record SignUpToken(String token) {
    }

    @RegisterForReflection
    public record UpstreamSettings(Boolean secondFactorAfterUpstream) {
    }

    private final LinkedIdentities identities;
    private final IdentitySignUps signUps;

    LinkedIdentitiesResource(LinkedIdentities identities, IdentitySignUps signUps) {
        this.identities = identities;
        this.signUps = signUps;
    }

    /** 200 with the person; 404 when the identity is linked to no one. */
    @POST
    @Path("/identity-sign-ins")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<LinkedIdentityRepository.Holder> signIn(LinkedIdentities.UpstreamIdentity identity) {
        return identities.signIn(identity);
    }

    /**
     * 201 with the new person (the provider verified its address); 202 when a link went to an
     * address the provider did not verify, and nothing is made until it is used (also when the
     * address is an account's: its owner is told instead, and the answer says nothing of it); 409
     * when the username or identity is taken; 422 for bad fields; 429 past the address's or the
     * identity's links.
     */
    @POST
    @Path("/identity-sign-ups")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> signUp(IdentitySignUps.NewAccount account) {
        return signUps.signUp(account).map(outcome -> outcome.confirmationMailed()
                ? Response.status(202).entity(new NewAccountPerson(0, account.username(), false, true)).build()
                : Response.status(201).entity(new NewAccountPerson(outcome.person().id(), outcome.person().username(),
                        outcome.person().emailVerified(), false)).build());
    }

    /** What a mailed link would make (the page shows it before anything is made); 410 for a link that is no good. */
    @POST
    @Path("/identity-sign-up-lookups")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<IdentitySignUps.Pending> pendingSignUp(SignUpToken token) {
        if (token == null) {
            throw ProblemException.badRequest("A JSON body is required.");
        }
        return signUps.pending(token.token());
    }

    /** 201 with the person the mailed link makes (its address confirmed); 410 for a link that is no good; 409 when taken meanwhile. */
    @POST
    @Path("/identity-sign-up-confirmations")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> confirmSignUp(SignUpToken token) {
        if (token == null) {
            throw ProblemException.badRequest("A JSON body is required.");
        }
        return signUps.confirmSignUp(token.token()).map(row -> Response.status(201)
                .entity(new NewAccountPerson(row.id(), row.username(), row.emailVerified(), false)).build());
    }

    /** 201 when linked now, 200 when it was the person's already; 409 when someone else's. */
    @POST
    @Path("/people/{id}/identities")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> link(@PathParam("id") String id, IdentityLink link) {
        long personId = PathIds.parse(id, "person");
        if (link == null) {
            throw ProblemException.badRequest("A JSON body is required.");
        }
        return identities.link(personId, link.identity(), PasswordChecks.address(link.clientAddress()))
                .map(created -> Response.status(created ? 201 : 200).build());
    }

    @GET
    @Path("/people/{id}/identities")
    public Uni<List<LinkedIdentities.IdentityView>> list(@PathParam("id") String id) {
        return identities.list(PathIds.parse(id, "person"));
    }

    /** 204; 404 for no such link of the person; 409 when it is their last way to sign in. */
    @DELETE
    @Path("/people/{id}/identities/{linkId}")
    public Uni<Response> unlink(@PathParam("id") String id, @PathParam("linkId") String linkId,
            @QueryParam("client_address") String clientAddress) {
        return identities.unlink(PathIds.parse(id, "person"), PathIds.parse(linkId, "identity"),
                PasswordChecks.address(clientAddress)).map(done -> Response.noContent().build());
    }

    @GET
    @Path("/people/{id}/upstream-settings")
    public Uni<UpstreamSettings> settings(@PathParam("id") String id) {
        return identities.secondFactorAfterUpstream(PathIds.parse(id, "person")).map(UpstreamSettings::new);
    }

    @PUT
    @Path("/people/{id}/upstream-settings")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> setSettings(@PathParam("id") String id, UpstreamSettings settings,
            @QueryParam("client_address") String clientAddress) {
        long personId = PathIds.parse(id, "person");
        if (settings == null) {
            throw ProblemException.badRequest("A JSON body is required.");
        }
        return identities.setSecondFactorAfterUpstream(personId, settings.secondFactorAfterUpstream(),
                PasswordChecks.address(clientAddress))
                .map(done -> Response.noContent().build());
    }
}
