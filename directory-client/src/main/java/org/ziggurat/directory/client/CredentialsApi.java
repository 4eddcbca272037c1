package org.ziggurat.directory.client;

import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.List;

/**
 * The part of directory-service's internal API that checks and keeps a person's ways in: the
 * password, the second factors (TOTP, passkeys, recovery codes), and the security log of what was
 * done with them. Called through {@link DirectoryClient}.
 */
@Produces(MediaType.APPLICATION_JSON)
public interface CredentialsApi extends DirectoryFailures {

    @RegisterForReflection
    record PasswordCheck(String login, String password, String clientAddress, String userAgent) {

        public PasswordCheck(String login, String password, String clientAddress) {
            this(login, password, clientAddress, null);
        }
    }

    /** {@code secondFactor}: the person has one, which must follow the password. */
    @RegisterForReflection
    record VerifiedPerson(long userId, String username, boolean secondFactor) {
    }

    /** A second factor's code (TOTP or recovery) for a person who passed the password. */
    @RegisterForReflection
    record SecondFactorCheck(long personId, String code, String clientAddress, String userAgent) {

        public SecondFactorCheck(long personId, String code, String clientAddress) {
            this(personId, code, clientAddress, null);
        }
    }

    /** How a code was accepted: {@code otp} or {@code recovery}, and the recovery codes left. */
    @RegisterForReflection
    record AcceptedCode(String method, long recoveryCodesLeft) {
    }

    /** A person's second factors, as the account page shows them; {@code totp}: none, pending or enabled. */
    @RegisterForReflection
    record FactorStatus(boolean twoFactorAuthentication, String totp, java.time.OffsetDateTime totpConfirmedAt,
            java.time.OffsetDateTime totpLastUsedAt, List<PasskeyView> passkeys, long recoveryCodesLeft,
            List<AccountEvent> events) {
    }

    @RegisterForReflection
    record PasskeyView(long id, String name, java.time.OffsetDateTime createdAt, java.time.OffsetDateTime lastUsedAt) {
    }

    /** A WebAuthn credential auth-service verified at registration; bytes base64url. */
    @RegisterForReflection
    record PasskeyRegistration(String credentialId, String publicKey, long signCount, boolean uvInitialized,
            boolean backupEligible, String transports, String name, String clientAddress) {
    }

    /** What an assertion is verified against: the owner, the COSE key (base64url) and the counter. */
    @RegisterForReflection
    record PasskeyCredential(long id, long personId, String username, String publicKey, long signCount,
            boolean uvInitialized, boolean backupEligible) {
    }

    @RegisterForReflection
    record PasskeyUse(long signCount) {
    }

    @RegisterForReflection
    record AccountEvent(String kind, String clientAddress, java.time.OffsetDateTime at, String device, String detail) {
    }

    /** An entry of a person's security log that auth-service records: sign_in, application_authorized or _revoked. */
    @RegisterForReflection
    record SecurityLogEntry(String kind, String clientAddress, String userAgent, String detail) {
    }

    /** A TOTP key being enrolled: Base32, with its algorithm, digits and period. */
    @RegisterForReflection
    record TotpEnrolment(String secret, String algorithm, int digits, long period) {
    }

    @RegisterForReflection
    record RecoveryCodes(List<String> recoveryCodes) {
    }

    @POST
    @Path("/passwords/verify")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<VerifiedPerson> verifyPassword(PasswordCheck check);

    /** Records an entry in the person's security log (a sign-in from a new device mails a notice). */
    @POST
    @Path("/people/{id}/security-log")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Void> recordSecurityLog(@PathParam("id") long personId, SecurityLogEntry entry);

    /** 401 {@link PasswordRefused} when the code is not right, 429 {@link PasswordThrottled}. */
    @POST
    @Path("/second-factors/verify")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<AcceptedCode> verifySecondFactor(SecondFactorCheck check);

    @GET
    @Path("/people/{id}/factors")
    Uni<FactorStatus> factors(@PathParam("id") long personId);

    /** {@link Conflict} when a confirmed key exists. */
    @POST
    @Path("/people/{id}/factors/totp")
    Uni<TotpEnrolment> startTotp(@PathParam("id") long personId);

    /** {@link Invalid} for a wrong code, {@link Conflict} when nothing is being enrolled. */
    @POST
    @Path("/people/{id}/factors/totp/confirmation")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<RecoveryCodes> confirmTotp(@PathParam("id") long personId, SecondFactorCheck check);

    /** {@link NotFound} when there is none. */
    @DELETE
    @Path("/people/{id}/factors/totp")
    Uni<Response> removeTotp(@PathParam("id") long personId, @QueryParam("client_address") String clientAddress);

    /** 201 with recovery codes when it is the person's first factor (else none); {@link Conflict} when registered. */
    @POST
    @Path("/people/{id}/passkeys")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<RecoveryCodes> addPasskey(@PathParam("id") long personId, PasskeyRegistration registration);

    /** {@link NotFound} when the person has no such passkey. */
    @DELETE
    @Path("/people/{id}/passkeys/{passkey}")
    Uni<Response> removePasskey(@PathParam("id") long personId, @PathParam("passkey") long passkeyId,
            @QueryParam("client_address") String clientAddress);

    /** {@link NotFound} when no passkey has the credential id (base64url). */
    @GET
    @Path("/passkeys/{credentialId}")
    Uni<PasskeyCredential> passkey(@PathParam("credentialId") String credentialId);

    /** {@link Conflict} when the counter did not move forward. */
    @POST
    @Path("/passkeys/{credentialId}/use")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> usePasskey(@PathParam("credentialId") String credentialId, PasskeyUse use);

    /** {@link Conflict} for a person without a second factor. */
    @POST
    @Path("/people/{id}/recovery-codes")
    Uni<RecoveryCodes> regenerateRecoveryCodes(@PathParam("id") long personId,
            @QueryParam("client_address") String clientAddress);
}
