package org.ziggurat.directory.client;

import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
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
 * The part of directory-service's internal API for sign-ins at another provider: whose identity
 * it is, accounts made from one, the links between a person and their identities, and whether a
 * second factor follows such a sign-in. Called through {@link DirectoryClient}.
 */
@Produces(MediaType.APPLICATION_JSON)
public interface LinkedIdentitiesApi extends DirectoryFailures {

    /** What a provider said of the person who signed in there, and the issuer that vouched. */
    @RegisterForReflection
    record UpstreamIdentity(String provider, String subject, String displayName, String email, boolean emailVerified,
            List<String> assurance, String orcid, String issuer) {
    }

    /** Whose an identity is, whether they have a second factor, and whether it is asked for after this sign-in. */
    @RegisterForReflection
    record IdentityHolder(long personId, String username, boolean secondFactor, boolean secondFactorDue) {
    }

    /** {@link NotFound} when the identity is linked to no account. */
    @POST
    @Path("/identity-sign-ins")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<IdentityHolder> identitySignIn(UpstreamIdentity identity);

    @RegisterForReflection
    record NewAccount(String username, String displayName, String email, UpstreamIdentity identity) {
    }

    /** The new person; or ({@code confirmationMailed}) none yet: a link went to the address, and id is 0. */
    @RegisterForReflection
    record NewAccountPerson(long id, String username, boolean emailVerified, boolean confirmationMailed) {
    }

    /**
     * The account at once when the provider verified the address, else a link to it (202,
     * {@code confirmationMailed}); {@link Conflict} (with its detail) when the name, address or
     * identity is taken; {@link Invalid} naming the fields; {@link PasswordThrottled} past the
     * address's links.
     */
    @POST
    @Path("/identity-sign-ups")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<NewAccountPerson> identitySignUp(NewAccount account);

    @RegisterForReflection
    record SignUpToken(String token) {
    }

    /** What a mailed link would make: the account's name and address, and the identity's provider and issuer. */
    @RegisterForReflection
    record PendingIdentitySignUp(String username, String email, String provider, String issuer) {
    }

    /** What a mailed link would make, before anything is; {@link LinkGone} for a link that is no good. */
    @POST
    @Path("/identity-sign-up-lookups")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<PendingIdentitySignUp> pendingIdentitySignUp(SignUpToken token);

    /** The account a mailed link makes; {@link LinkGone} for a link that is no good; {@link Conflict} when taken meanwhile. */
    @POST
    @Path("/identity-sign-up-confirmations")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<NewAccountPerson> confirmIdentitySignUp(SignUpToken token);

    @RegisterForReflection
    record IdentityLink(UpstreamIdentity identity, String clientAddress) {
    }

    /** 201 linked now, 200 the person's already; {@link Conflict} when someone else's; {@link Invalid} past the limit. */
    @POST
    @Path("/people/{id}/identities")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> linkIdentity(@PathParam("id") long personId, IdentityLink link);

    @RegisterForReflection
    record LinkedIdentity(long id, String provider, String subject, String displayName, String email, boolean emailVerified,
            List<String> assurance, String orcid, java.time.Instant createdAt, java.time.Instant lastUsedAt) {
    }

    @GET
    @Path("/people/{id}/identities")
    Uni<List<LinkedIdentity>> identities(@PathParam("id") long personId);

    /** {@link NotFound} for no such link of the person; {@link Conflict} when it is their last way to sign in. */
    @DELETE
    @Path("/people/{id}/identities/{link}")
    Uni<Response> unlinkIdentity(@PathParam("id") long personId, @PathParam("link") long linkId,
            @QueryParam("client_address") String clientAddress);

    @RegisterForReflection
    record UpstreamSettings(Boolean secondFactorAfterUpstream) {
    }

    @GET
    @Path("/people/{id}/upstream-settings")
    Uni<UpstreamSettings> upstreamSettings(@PathParam("id") long personId);

    @PUT
    @Path("/people/{id}/upstream-settings")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> setUpstreamSettings(@PathParam("id") long personId, UpstreamSettings settings,
            @QueryParam("client_address") String clientAddress);
}
