package org.ziggurat.directory.client;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.json.JsonObject;
import java.util.List;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.quarkus.rest.client.reactive.ClientExceptionMapper;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.annotation.RegisterClientHeaders;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;
import org.ziggurat.platform.problem.DependencyUnavailable;

/**
 * directory-service's internal API ({@code /internal/**}), the one client of it. Every call carries
 * the calling service's own platform token ({@link ServiceTokenHeaders}). Where it is:
 * {@code quarkus.rest-client.directory.url} (timeouts in this module's
 * {@code META-INF/microprofile-config.properties}). The answers it maps: 401 {@link PasswordRefused},
 * 429 {@link PasswordThrottled}, 404 {@link NotFound}, 5xx {@code DependencyUnavailable} (a 503 to
 * the caller, who may retry).
 */
@RegisterRestClient(configKey = "directory")
@RegisterClientHeaders(ServiceTokenHeaders.class)
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
public interface DirectoryClient {

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

    /** The directory found the request's content invalid (422): a wrong enrolment code, say. */
    class Invalid extends RuntimeException {
        private final List<String> fields;

        public Invalid() {
            this(List.of());
        }

        /** {@code fields}: the fields the problem named, when it named any. */
        public Invalid(List<String> fields) {
            super("invalid", null, false, false);
            this.fields = fields;
        }

        public List<String> fields() {
            return fields;
        }
    }

    /** The directory refused the change as things stand (409). */
    class Conflict extends RuntimeException {
        public Conflict() {
            this(null);
        }

        /** {@code detail}: the problem's detail, when the directory gave one (null otherwise). */
        public Conflict(String detail) {
            super(detail == null ? "conflict" : detail, null, false, false);
        }

        public String detail() {
            return "conflict".equals(getMessage()) ? null : getMessage();
        }
    }

    /** The directory refused the password (401). */
    class PasswordRefused extends RuntimeException {
        public PasswordRefused() {
            super("refused", null, false, false);
        }
    }

    /** The directory throttles this account or address (429). */
    class PasswordThrottled extends RuntimeException {
        private final long retryAfter;

        public PasswordThrottled(long retryAfter) {
            super("throttled", null, false, false);
            this.retryAfter = retryAfter;
        }

        public long retryAfter() {
            return retryAfter;
        }
    }

    /** A person as the directory's internal API returns them. */
    @RegisterForReflection
    record PersonSummary(long id, String username, String displayName,
            @JsonProperty("image_thumb_50") String imageThumb50, String url,
            String htmlUrl, String email) {
    }

    @RegisterForReflection
    record OrganizationOfPerson(long id, String name, String role) {
    }

    /** The directory's Organization object, passed on as it is, and the permissions recorded with the link. */
    @RegisterForReflection
    record LinkedOrganization(JsonNode organization,
            JsonNode permissions) {
    }

    @RegisterForReflection
    record LinkPermissions(JsonObject permissions) {
    }

    /**
     * A namespace and what the person ({@code 0}: anonymous) may do in it, having signed in with
     * a second factor or not; {@link NotFound} if none has the name.
     */
    @GET
    @Path("/namespaces/{name}")
    Uni<Namespace> namespace(@PathParam("name") String name, @QueryParam("person_id") long personId,
            @QueryParam("second_factor_sign_in") boolean secondFactorSignIn);

    @GET
    @Path("/people")
    Uni<List<PersonSummary>> people(@QueryParam("ids") String ids);

    /** A notice to a namespace's admins, by mail (the directory's outbox): its kind names what it tells of. */
    @RegisterForReflection
    record AdminNotice(String kind, String subject, String body) {
    }

    /** Queues the notice for every admin of the namespace (202); {@link NotFound} if none has the name. */
    @POST
    @Path("/namespaces/{name}/admin-notices")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> noticeAdmins(@PathParam("name") String name, AdminNotice notice);

    /** What a relying party may learn of a person (OpenID Connect's profile and email scopes). */
    @RegisterForReflection
    record OpenIdPerson(long id, String username, String displayName, String picture, String htmlUrl, String email,
            java.time.Instant updatedAt, boolean emailVerified, Research research) {
    }

    /**
     * The research claims ({@code research=true}): memberships as AARC-G069 entitlements (only of
     * the organizations whose own API would let the sign-in in), the ORCID iD of linked identities,
     * the persistent voperson id. ({@code assurance}: none; the sign-in's own is auth-service's.)
     */
    @RegisterForReflection
    record Research(List<String> entitlements, String orcid, List<String> assurance, String vopersonId) {
    }

    /** {@link NotFound} when no person has the id; with the research claims when {@code research}. */
    @GET
    @Path("/people/{id}/claims")
    Uni<OpenIdPerson> claims(@PathParam("id") long personId, @QueryParam("research") boolean research);

    /**
     * The same, for a sign-in with a second factor or not ({@code secondFactorSignIn}): the
     * entitlements of an organization that requires one come only with a sign-in that used one.
     */
    @GET
    @Path("/people/{id}/claims")
    Uni<OpenIdPerson> claims(@PathParam("id") long personId, @QueryParam("research") boolean research,
            @QueryParam("second_factor_sign_in") boolean secondFactorSignIn);

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

    @GET
    @Path("/people/{id}/organizations")
    Uni<List<OrganizationOfPerson>> organizationsOf(@PathParam("id") long personId);

    @GET
    @Path("/applications/{clientId}/organizations")
    Uni<List<LinkedOrganization>> linkedOrganizations(@PathParam("clientId") String clientId);

    @PUT
    @Path("/organizations/{id}/applications/{clientId}")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> link(@PathParam("id") long organizationId, @PathParam("clientId") String clientId,
            LinkPermissions permissions);

    @DELETE
    @Path("/organizations/{id}/applications/{clientId}")
    Uni<Response> unlink(@PathParam("id") long organizationId, @PathParam("clientId") String clientId);

    /** The directory answered 410: a mailed link that was used, expired, or is not one of its. */
    class LinkGone extends RuntimeException {
        public LinkGone() {
            super("gone", null, false, false);
        }
    }

    /** The directory answered 404: the person, organization or link does not exist. */
    class NotFound extends RuntimeException {
        public NotFound() {
            super("not found", null, false, false);
        }
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

    /** A person as their own account page shows them: {@code publicEmail} only ever the verified sign-in address. */
    @RegisterForReflection
    record AccountProfile(long id, String username, String displayName, String picture, String email, boolean emailVerified,
            String publicEmail) {
    }

    @GET
    @Path("/people/{id}/profile")
    Uni<AccountProfile> accountProfile(@PathParam("id") long personId);

    /** As PATCH /user: display_name, and email (the public address: the verified sign-in address, or null); {@link Invalid}. */
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

    /** A problem's detail, if the body is one. */
    private static String problemDetail(Response response) {
        try {
            String body = response.readEntity(String.class);
            return body == null ? null : new com.fasterxml.jackson.databind.ObjectMapper().readTree(body).path("detail").asText(null);
        } catch (RuntimeException | com.fasterxml.jackson.core.JsonProcessingException notAProblem) {
            return null;
        }
    }

    /** The fields a problem's errors name, if the body is one. */
    private static List<String> problemFields(Response response) {
        try {
            String body = response.readEntity(String.class);
            List<String> fields = new java.util.ArrayList<>();
            if (body != null) {
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(body).path("errors")
                        .forEach(error -> fields.add(error.path("field").asText("")));
            }
            return List.copyOf(fields);
        } catch (RuntimeException | com.fasterxml.jackson.core.JsonProcessingException notAProblem) {
            return List.of();
        }
    }

    @ClientExceptionMapper
    static RuntimeException toException(Response response) {
        if (response.getStatus() == 401) {
            return new PasswordRefused();
        }
        if (response.getStatus() == 429) {
            String retry = response.getHeaderString("Retry-After");
            long seconds = 60;
            try {
                seconds = retry == null ? 60 : Long.parseLong(retry.trim());
            } catch (NumberFormatException e) {
                // keep the default
            }
            return new PasswordThrottled(seconds);
        }
        if (response.getStatus() == 404) {
            return new NotFound();
        }
        if (response.getStatus() == 409) {
            return new Conflict(problemDetail(response));
        }
        if (response.getStatus() == 410) {
            return new LinkGone();
        }
        if (response.getStatus() == 422) {
            return new Invalid(problemFields(response));
        }
        if (response.getStatus() == 413) {
            return new Invalid();
        }
        if (response.getStatus() >= 500) {
            // Its database away, say: a 503 to our caller, who may retry, not a 500.
            return new DependencyUnavailable("directory-service answered " + response.getStatus(), null);
        }
        return new IllegalStateException("directory-service answered " + response.getStatus());
    }
}
