package org.ziggurat.directory.internal;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.ziggurat.directory.factors.SecondFactors;
import org.ziggurat.platform.http.PathIds;

/**
 * The internal API of second factors, for auth-service: checking a code at sign-in, and what the
 * account page does for a signed-in person (who auth-service has checked, and asked for the
 * password again before a removal). Only a service's own platform token is accepted.
 */
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
public class FactorsResource {

    private final SecondFactorChecks checks;

    FactorsResource(SecondFactorChecks checks) {
        this.checks = checks;
    }

    /** 200 with how the code was accepted; 401 when not; 429 with Retry-After when throttled. */
    @POST
    @Path("/second-factors/verify")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> verify(InternalResource.SecondFactorCheck check) {
        return checks.verify(check).map(outcome -> outcome.accepted() != null
                ? Response.ok(outcome.accepted()).build() : InternalResource.tooManyAttempts(outcome.retryAfter()));
    }

    @GET
    @Path("/people/{id}/factors")
    public Uni<SecondFactors.FactorStatus> status(@PathParam("id") String id) {
        return checks.status(PathIds.parse(id, "person"));
    }

    /** 201 with a new key to enrol; 409 when one is set up already. */
    @POST
    @Path("/people/{id}/factors/totp")
    public Uni<Response> startTotp(@PathParam("id") String id) {
        return checks.startTotp(PathIds.parse(id, "person")).map(enrolment -> Response.status(201).entity(enrolment).build());
    }

    /** The enrolment's first code: 200 with the recovery codes, shown once; 422 for a wrong code. */
    @POST
    @Path("/people/{id}/factors/totp/confirmation")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<SecondFactors.RecoveryCodes> confirmTotp(@PathParam("id") String id, InternalResource.SecondFactorCheck check) {
        return checks.confirmTotp(PathIds.parse(id, "person"), check);
    }

    @DELETE
    @Path("/people/{id}/factors/totp")
    public Uni<Response> removeTotp(@PathParam("id") String id, @QueryParam("client_address") String clientAddress) {
        return checks.removeTotp(PathIds.parse(id, "person"), clientAddress).map(v -> Response.noContent().build());
    }

    /** A new set of recovery codes, the old ones void; 409 without a second factor. */
    @POST
    @Path("/people/{id}/recovery-codes")
    public Uni<SecondFactors.RecoveryCodes> regenerateRecoveryCodes(@PathParam("id") String id,
            @QueryParam("client_address") String clientAddress) {
        return checks.regenerateRecoveryCodes(PathIds.parse(id, "person"), clientAddress);
    }
}
