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

    /** A passkey that auth-service verified: 201 with recovery codes when it is the first factor (else none). */
    @POST
    @Path("/people/{id}/passkeys")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> addPasskey(@PathParam("id") String id, SecondFactors.PasskeyRegistration registration) {
        return checks.addPasskey(PathIds.parse(id, "person"), registration)
                .map(codes -> Response.status(201).entity(codes).build());
    }

    @DELETE
    @Path("/people/{id}/passkeys/{passkey}")
    public Uni<Response> removePasskey(@PathParam("id") String id, @PathParam("passkey") String passkey,
            @QueryParam("client_address") String clientAddress) {
        return checks.removePasskey(PathIds.parse(id, "person"), PathIds.parse(passkey, "passkey"), clientAddress)
                .map(v -> Response.noContent().build());
    }

    /** The credential an assertion names (base64url), with its owner, key and counter; 404 when none. */
    @GET
    @Path("/passkeys/{credentialId}")
    public Uni<SecondFactors.PasskeyCredential> passkey(@PathParam("credentialId") String credentialId) {
        return checks.passkey(credentialId);
    }

    /** The counter of a verified assertion: 204, or 409 when it did not move forward. */
    @POST
    @Path("/passkeys/{credentialId}/use")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> usePasskey(@PathParam("credentialId") String credentialId, PasskeyUse use) {
        if (use == null) {
            throw org.ziggurat.platform.problem.ProblemException.invalidField("sign_count", "is required");
        }
        return checks.usePasskey(credentialId, use.signCount()).map(v -> Response.noContent().build());
    }

    @io.quarkus.runtime.annotations.RegisterForReflection
    public record PasskeyUse(long signCount) {
    }

    /** A new set of recovery codes, the old ones void; 409 without a second factor. */
    @POST
    @Path("/people/{id}/recovery-codes")
    public Uni<SecondFactors.RecoveryCodes> regenerateRecoveryCodes(@PathParam("id") String id,
            @QueryParam("client_address") String clientAddress) {
        return checks.regenerateRecoveryCodes(PathIds.parse(id, "person"), clientAddress);
    }
}
