package org.ziggurat.directory.client;

import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.List;

/**
 * The part of directory-service's internal API for a person's own account: their profile and
 * avatar, their sign-in address and its proof, their password (changed, or recovered by a mailed
 * link), and their account's export and deletion. Called through {@link DirectoryClient}.
 */
@Produces(MediaType.APPLICATION_JSON)
public interface AccountApi extends DirectoryFailures {

    /** The token a verification link carried. */
    @RegisterForReflection
    record EmailToken(String token) {
    }

    /** Whose address a link proved. */
    @RegisterForReflection
    record VerifiedEmail(long personId, String username, String email) {
    }

    @RegisterForReflection
    record RecoveryAsk(String login, String clientAddress) {
    }

    @RegisterForReflection
    record PasswordReset(String token, String password, String clientAddress) {
    }

    /** Whose password a recovery link set. */
    @RegisterForReflection
    record RecoveredPerson(long id, String username) {
    }

    /** 202 whether or not the login names an account; {@link PasswordThrottled} when the address asked too often. */
    @POST
    @Path("/password-recoveries")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> askPasswordRecovery(RecoveryAsk ask);

    @RegisterForReflection
    record NewPassword(String password, String clientAddress) {
    }

    /** A new password the person chose (after the current one was checked); {@link Invalid} when the rules refuse it. */
    @PUT
    @Path("/people/{id}/password")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<RecoveredPerson> changePassword(@PathParam("id") long personId, NewPassword password);

    /** {@link Invalid} for a password the rules refuse, {@link LinkGone} for a link that is no good. */
    @POST
    @Path("/password-resets")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<RecoveredPerson> resetPassword(PasswordReset reset);

    /** {@link LinkGone} when the token is unknown, used, expired, or for an address the person no longer has. */
    @POST
    @Path("/email-verifications")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<VerifiedEmail> verifyEmail(EmailToken token);

    /**
     * A person as their own account page shows them: {@code publicEmail} only ever the verified
     * sign-in address; the standard profile claims they gave (given_name to zoneinfo), null when not given.
     */
    @RegisterForReflection
    record AccountProfile(long id, String username, String displayName, String picture, String email, boolean emailVerified,
            String publicEmail, String givenName, String familyName, String website, String locale, String zoneinfo) {
    }

    @GET
    @Path("/people/{id}/profile")
    Uni<AccountProfile> accountProfile(@PathParam("id") long personId);

    /**
     * As PATCH /user: display_name, email (the public address: the verified sign-in address, or null),
     * given_name, family_name, website, locale, zoneinfo (null removes each); {@link Invalid} naming the fields at fault.
     */
    @PATCH
    @Path("/people/{id}/profile")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<AccountProfile> changeProfile(@PathParam("id") long personId, java.util.Map<String, Object> change);

    /** A new avatar: {@link Invalid} for anything but a PNG or JPEG of the allowed size and sides. */
    @PUT
    @Path("/people/{id}/avatar")
    @Consumes(MediaType.APPLICATION_OCTET_STREAM)
    Uni<AccountProfile> setAvatar(@PathParam("id") long personId, byte[] image);

    @RegisterForReflection
    record NewEmail(String email, String clientAddress) {
    }

    @RegisterForReflection
    record ChangedEmail(long personId, String username, String email, boolean changed) {
    }

    /** A new sign-in address: {@link Invalid} when it is none, {@link Conflict} when another account has it. */
    @PUT
    @Path("/people/{id}/email")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<ChangedEmail> changeEmail(@PathParam("id") long personId, NewEmail email);

    /** A new link to prove the address; {@link Conflict} when it is proven already. */
    @POST
    @Path("/people/{id}/email-verification-mails")
    Uni<Void> resendVerification(@PathParam("id") long personId);

    /** Everything the platform holds about the person, as one JSON document (the directory asks each service). */
    @GET
    @Path("/people/{id}/export")
    Uni<String> exportAccount(@PathParam("id") long personId);

    @RegisterForReflection
    record Deletion(String confirm) {
    }

    @RegisterForReflection
    record DeletedAccount(String username, java.util.List<String> organizationsDeleted) {
    }

    /** {@link Invalid} unless confirm is the username; {@link Conflict} (with its detail) for organizations only they administer. */
    @POST
    @Path("/people/{id}/deletion")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<DeletedAccount> deleteAccount(@PathParam("id") long personId, Deletion deletion);
}
