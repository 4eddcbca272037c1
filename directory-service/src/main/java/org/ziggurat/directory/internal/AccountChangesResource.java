package org.ziggurat.directory.internal;

import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.ziggurat.platform.http.PathIds;
import org.ziggurat.platform.problem.ProblemException;

/**
 * The internal API of a person's own account, for auth-service's pages: proving an address with
 * a mailed link, "Forgot your password?", and a new password chosen on the account page. Only a
 * platform token that a service signed for itself is accepted (checked in the services below).
 */
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
public class AccountChangesResource {

    private final PersonLookups people;
    private final PasswordChanges recoveries;

    AccountChangesResource(PersonLookups people, PasswordChanges recoveries) {
        this.people = people;
        this.recoveries = recoveries;
    }

    @RegisterForReflection
    public record EmailToken(String token) {
    }

    @RegisterForReflection
    public record RecoveryAsk(String login, String clientAddress) {
    }

    @RegisterForReflection
    public record PasswordReset(String token, String password, String clientAddress) {
    }

    /**
     * "Forgot your password?": 202 whether or not the login names an account (a link is mailed
     * when it does); 429 with Retry-After when the client address asked too often.
     */
    @POST
    @Path("/password-recoveries")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> askRecovery(RecoveryAsk ask) {
        return recoveries.ask(ask == null ? null : ask.login(), ask == null ? null : ask.clientAddress())
                .map(wait -> wait > 0 ? InternalResource.tooManyAttempts(wait) : Response.accepted().build());
    }

    @RegisterForReflection
    public record NewPassword(String password, String clientAddress) {
    }

    /**
     * A new password the person chose on their account page, after auth-service checked the
     * current one: 200 with the person, 422 for the password.
     */
    @PUT
    @Path("/people/{id}/password")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<org.ziggurat.directory.people.PeopleRepository.Recoverable> changePassword(@PathParam("id") String id,
            NewPassword body) {
        long personId = PathIds.parse(id, "person");
        if (body == null) {
            throw ProblemException.badRequest("A JSON body is required.");
        }
        return recoveries.change(personId, body.password(), body.clientAddress());
    }

    /** A new password with a recovery link's token: 200 with the person, 422 for the password, 410 for the link. */
    @POST
    @Path("/password-resets")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<org.ziggurat.directory.people.PeopleRepository.Recoverable> resetPassword(PasswordReset reset) {
        if (reset == null) {
            throw ProblemException.badRequest("A JSON body is required.");
        }
        return recoveries.reset(reset.token(), reset.password(), reset.clientAddress());
    }

    /**
     * Proves a sign-in address with the token its mail carried (the page the link opens, at
     * auth-service): 200 with the person and the address; 410 when the token is unknown, used,
     * expired, or for an address the person no longer has.
     */
    @POST
    @Path("/email-verifications")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<org.ziggurat.directory.people.PeopleRepository.Verified> verifyEmail(EmailToken body) {
        return people.verifyEmail(body == null ? null : body.token());
    }
}
