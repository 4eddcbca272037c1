package org.ziggurat.directory.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.directory.accountdata.AccountDeletionRepository;
import org.ziggurat.directory.people.EmailAddresses;
import org.ziggurat.directory.securitylog.SecurityLog;
import org.ziggurat.directory.securitylog.SecurityLogRepository;
import org.ziggurat.directory.selfservice.OwnCredentials;
import org.ziggurat.platform.input.EdgeInput;
import org.ziggurat.platform.input.FieldChecks;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.rest.openapi.ApiContract;
import org.ziggurat.platform.rest.openapi.ApiErrors;
import org.ziggurat.platform.rest.problem.ProblemMappers;
import org.ziggurat.platform.token.Callers;
import org.ziggurat.platform.token.ScopeNames;

import java.util.List;

/**
 * The account itself, for scripts (what the account page does in a browser): the sign-in address
 * and its proof, the security log, the export and the deletion. All but the proof need the
 * {@code account} scope, which only applications the platform's operators verified can obtain; the
 * address, the export and the deletion need the current password too (OwnCredentials), so that a
 * token alone, if it leaked, moves no address (and with it the password's recovery) and takes no data.
 */
@Tag(name = "People")
@Path("/user")
@Produces(MediaType.APPLICATION_JSON)
public class AccountApiResource {

    private final Callers callers;
    private final EmailAddresses addresses;
    private final SecurityLog log;
    private final OwnCredentials credentials;

    AccountApiResource(Callers callers, EmailAddresses addresses, SecurityLog log, OwnCredentials credentials) {
        this.callers = callers;
        this.addresses = addresses;
        this.log = log;
        this.credentials = credentials;
    }

    /** The body's current password: 422 when it is missing or not a string (refused after the caller's rights). */
    private static EdgeInput<String> password(JsonNode body) {
        return EdgeInput.read(() -> OwnCredentialsResource.text(body, "password"));
    }

    @Operation(operationId = "exportAccount", summary = "Everything the platform holds about the authenticated person",
    description = "After the current password (checked and throttled as a sign-in; an account without one, made through "
    + "another provider, exports on the account page: 403). One JSON document from every service: the profile, "
    + "memberships, second factors (never their secrets), security log and mails (directory); applications, authorized "
    + "applications and sign-ins (auth); the vocabularies and concepts (vocab) and data events (events) the person "
    + "created. Whole or not at all: 503 when a service cannot give its part.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ACCOUNT)
    @RequestBody(required = true, content = @Content(mediaType = "application/json",
    schema = @Schema(implementation = OwnCredentialsResource.PasswordConfirmation.class)))
    @APIResponse(responseCode = "200", description = "The export, as a file to keep.",
    content = @Content(mediaType = "application/json", schema = @Schema(type = org.eclipse.microprofile.openapi.annotations.enums.SchemaType.OBJECT)))
    @APIResponse(responseCode = "429", description = "Too many attempts.", content = @Content(mediaType = "application/problem+json",
    schema = @Schema(ref = ApiErrors.PROBLEM_SCHEMA)))
    @APIResponse(responseCode = "503", description = "A service holding part of the person's data cannot answer now: "
    + "try again later.", content = @Content(mediaType = "application/problem+json", schema = @Schema(ref = ApiErrors.PROBLEM_SCHEMA)))
    @POST
    @Path("/export")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> export(JsonNode body) {
        EdgeInput<String> password = password(body);
        return callers.current().chain(caller -> credentials.export(caller, password)).map(export -> Response.ok(
                        export.encodePrettily(), MediaType.APPLICATION_JSON)
                .header("Content-Disposition", "attachment; filename=\"ziggurat-" + export.getJsonObject("directory")
                        .getJsonObject("profile").getString("username") + ".json\"")
                .header("Cache-Control", "no-store").build());
    }

    /**
     * The export was a GET, which carries no password: a GET is told to POST, with the Allow header
     * (not in the API's description: there is no such operation).
     */
    @Operation(hidden = true)
    @GET
    @Path("/export")
    public Response exportByGet(@Context HttpHeaders headers, @Context UriInfo uri) {
        return Response.fromResponse(new ProblemMappers().problem(new ProblemException(405, "Method Not Allowed",
                        "The export needs the current password: POST /user/export with {\"password\": \"...\"}."), headers, uri))
                .header(HttpHeaders.ALLOW, "POST").build();
    }

    @Operation(operationId = "deleteAccount", summary = "Delete the authenticated person's account",
    description = "confirm must be the username, and the body's password the current one (checked and throttled as a "
    + "sign-in; an account without one, made through another provider, is deleted on the account page: 403). The "
    + "profile, sign-ins, factors and memberships go at once; organizations "
    + "the person was the only active member of go with it; one the person alone administers while others are members "
    + "stops it (409: make another member an admin, or delete it, first). The applications the person registered, "
    + "every token, and the vocabularies and data events of the person's namespace are erased by the other services "
    + "within minutes; what the person made in other namespaces stays, credited to \"ghost\". The username is never "
    + "given again.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ACCOUNT)
    @RequestBody(required = true, content = @Content(mediaType = "application/json",
    schema = @Schema(implementation = OwnCredentialsResource.PasswordConfirmation.class)))
    @APIResponse(responseCode = "200", description = "What was deleted.")
    @APIResponse(responseCode = "409", ref = ApiErrors.CONFLICT)
    @APIResponse(responseCode = "422", ref = ApiErrors.UNPROCESSABLE)
    @APIResponse(responseCode = "429", description = "Too many attempts.", content = @Content(mediaType = "application/problem+json",
    schema = @Schema(ref = ApiErrors.PROBLEM_SCHEMA)))
    @DELETE
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<AccountDeletionRepository.Deleted> delete(
            @org.eclipse.microprofile.openapi.annotations.parameters.Parameter(required = true,
                    description = "The account's username, typed again.") @QueryParam("confirm") String confirm, JsonNode body) {
        EdgeInput<String> password = password(body);
        return callers.current().chain(caller -> credentials.deleteAccount(caller, confirm, password));
    }

    @Schema(name = "SignInAddressChange")
    record SignInAddressChange(@Schema(required = true, format = "email", maxLength = 254) String email,
            @Schema(required = true, format = "password", description = "The current password.") String password) {
    }

    @Operation(operationId = "changeSignInAddress", summary = "Change the authenticated person's sign-in address",
    description = "After the current password (checked and throttled as a sign-in; an account without one, made through "
    + "another provider, changes it on the account page: 403). The new address is unconfirmed until the link mailed to "
    + "it is followed; the old address is told of the "
    + "change; a public address is removed (only a confirmed sign-in address may be public). Same address: nothing changes. "
    + "Mails with a link are limited per person and per address (429 with Retry-After).")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ACCOUNT)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = SignInAddressChange.class)))
    @APIResponse(responseCode = "200", description = "The address, and whether it changed.")
    @APIResponse(responseCode = "409", ref = ApiErrors.CONFLICT)
    @APIResponse(responseCode = "422", ref = ApiErrors.UNPROCESSABLE)
    @APIResponse(responseCode = "429", description = "Too many attempts at the password, or too many mails with a link "
    + "(Retry-After says when to try again).", content = @Content(mediaType = "application/problem+json",
    schema = @Schema(ref = ApiErrors.PROBLEM_SCHEMA)))
    @PUT
    @Path("/email")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<EmailAddresses.Changed> changeEmail(JsonNode body) {
        EdgeInput<OwnCredentials.AddressChange> change = EdgeInput.read(() -> {
            FieldChecks errors = new FieldChecks();
            JsonNode fields = FieldChecks.object(body);
            String address = errors.string(fields.get("email"), "email",
                    org.ziggurat.directory.people.ProfileRules.EMAIL_MAX, true);
            JsonNode password = fields.get("password");
            if (password == null || !password.isTextual()) {
                errors.add("password", "is required, as a string");
            }
            errors.throwIfFailed("The request is not valid.");
            return new OwnCredentials.AddressChange(address, password.asText());
        });
        return callers.current().chain(caller -> credentials.changeAddress(caller, change));
    }

    @Operation(operationId = "resendAddressConfirmation", summary = "Mail a new link that confirms the sign-in address",
    description = "For an address not yet confirmed; the link works once, for 24 hours. Mails with a link are limited per "
    + "person and per address (429 with Retry-After).")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.USER)
    @APIResponse(responseCode = "202", description = "The link is on its way.")
    @APIResponse(responseCode = "409", ref = ApiErrors.CONFLICT)
    @POST
    @Path("/email/verification-mails")
    public Uni<Response> resendVerification() {
        return callers.current().chain(addresses::resendVerification).map(done -> Response.accepted().build());
    }

    @Operation(operationId = "getSecurityLog", summary = "The authenticated person's security log",
    description = "Sign-ins and failed attempts (address and browser), and changes to second factors, password, sign-in "
    + "address and applications' access, newest first; kept for the platform's retention (90 days unless configured).")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ACCOUNT)
    @APIResponse(responseCode = "200", description = "The entries.")
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @GET
    @Path("/security-log")
    public Uni<List<SecurityLogRepository.Logged>> securityLog(
            @org.eclipse.microprofile.openapi.annotations.parameters.Parameter(description = "At most this many entries "
                    + "(1 to 1000; 100 when left out).") @QueryParam("limit") String limit) {
        int most = limit == null ? 100 : parseLimit(limit);
        return callers.current().chain(caller -> log.entries(caller, most));
    }

    private static int parseLimit(String raw) {
        try {
            int value = Integer.parseInt(raw);
            if (value >= 1 && value <= SecurityLog.MOST_READ) {
                return value;
            }
        } catch (NumberFormatException notANumber) {
            // refused below
        }
        throw new org.ziggurat.platform.problem.ProblemException(400, "Bad Request", "limit must be a number from 1 to "
                + SecurityLog.MOST_READ + ".");
    }
}
