package org.ziggurat.directory.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.directory.factors.SecondFactors;
import org.ziggurat.directory.selfservice.OwnCredentials;
import org.ziggurat.platform.http.PathIds;
import org.ziggurat.platform.input.EdgeInput;
import org.ziggurat.platform.input.FieldChecks;
import org.ziggurat.platform.rest.openapi.ApiContract;
import org.ziggurat.platform.rest.openapi.ApiErrors;
import org.ziggurat.platform.token.Callers;
import org.ziggurat.platform.token.ScopeNames;

/**
 * The authenticated person's password and second factors, for scripts: the account scope, and
 * the current password with every change. Adding a factor needs a browser (a passkey) or the
 * account page (an authenticator app's key is shown there once).
 */
@Tag(name = "People")
@Path("/user")
@Produces(MediaType.APPLICATION_JSON)
public class OwnCredentialsResource {

    private final Callers callers;
    private final OwnCredentials credentials;

    OwnCredentialsResource(Callers callers, OwnCredentials credentials) {
        this.callers = callers;
        this.credentials = credentials;
    }

    @Schema(name = "PasswordChange")
    record PasswordChange(@Schema(required = true, format = "password", description = "The current password.") String password,
            @Schema(required = true, format = "password", minLength = 10, maxLength = 128) String newPassword) {
    }

    @Schema(name = "PasswordConfirmation")
    record PasswordConfirmation(@Schema(required = true, format = "password", description = "The current password.")
            String password) {
    }

    /** A field of a JSON object, as a string: 422 when it is missing or not one. */
    static String text(JsonNode body, String field) {
        FieldChecks.object(body);
        JsonNode node = body.get(field);
        if (node == null || !node.isTextual()) {
            FieldChecks errors = new FieldChecks();
            errors.add(field, "is required, as a string");
            errors.throwIfFailed("The request is not valid.");
        }
        return node.asText();
    }

    @Operation(operationId = "changePassword", summary = "Change the authenticated person's password",
    description = "After the current one (checked and throttled as a sign-in). Every sign-in of the person ends, and so "
    + "do the tokens of the password grant without a client (this one too, if it is one); applications the person gave "
    + "access keep theirs. The change is mailed to the person.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ACCOUNT)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = PasswordChange.class)))
    @APIResponse(responseCode = "204", description = "Changed.")
    @APIResponse(responseCode = "429", description = "Too many attempts.", content = @Content(mediaType = "application/problem+json",
    schema = @Schema(ref = ApiErrors.PROBLEM_SCHEMA)))
    @PUT
    @Path("/password")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> changePassword(JsonNode body) {
        EdgeInput<String[]> change = EdgeInput.read(() -> new String[] {text(body, "password"), text(body, "new_password")});
        return callers.current().chain(caller -> credentials.changePassword(caller, change.get()[0], change.get()[1]))
                .map(done -> Response.noContent().build());
    }

    @Operation(operationId = "getSecondFactors", summary = "The authenticated person's second factors",
    description = "Whether two-factor authentication is on, the authenticator app (never its key), the passkeys, the "
    + "recovery codes left, and the latest entries of the security log.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ACCOUNT)
    @APIResponse(responseCode = "200", description = "The second factors.")
    @GET
    @Path("/second-factors")
    public Uni<SecondFactors.FactorStatus> secondFactors() {
        return callers.current().chain(credentials::secondFactors);
    }

    @Operation(operationId = "removeAuthenticator", summary = "Remove the authenticator app",
    description = "After the current password. The change is mailed to the person.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ACCOUNT)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = PasswordConfirmation.class)))
    @APIResponse(responseCode = "204", description = "Removed.")
    @APIResponse(responseCode = "404", ref = ApiErrors.NOT_FOUND)
    @APIResponse(responseCode = "429", description = "Too many attempts.", content = @Content(mediaType = "application/problem+json",
    schema = @Schema(ref = ApiErrors.PROBLEM_SCHEMA)))
    @DELETE
    @Path("/second-factors/totp")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> removeAuthenticator(JsonNode body) {
        EdgeInput<String> password = EdgeInput.read(() -> text(body, "password"));
        return callers.current().chain(caller -> credentials.removeAuthenticator(caller, password.get()))
                .map(done -> Response.noContent().build());
    }

    @Operation(operationId = "newRecoveryCodes", summary = "Make new recovery codes",
    description = "After the current password; the old codes stop working. The codes are shown in this answer only.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ACCOUNT)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = PasswordConfirmation.class)))
    @APIResponse(responseCode = "200", description = "The new codes.")
    @APIResponse(responseCode = "409", ref = ApiErrors.CONFLICT)
    @APIResponse(responseCode = "429", description = "Too many attempts.", content = @Content(mediaType = "application/problem+json",
    schema = @Schema(ref = ApiErrors.PROBLEM_SCHEMA)))
    @POST
    @Path("/second-factors/recovery-codes")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<SecondFactors.RecoveryCodes> newRecoveryCodes(JsonNode body) {
        EdgeInput<String> password = EdgeInput.read(() -> text(body, "password"));
        return callers.current().chain(caller -> credentials.newRecoveryCodes(caller, password.get()));
    }

    @Operation(operationId = "removePasskey", summary = "Remove a passkey",
    description = "After the current password. The change is mailed to the person.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ACCOUNT)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = PasswordConfirmation.class)))
    @APIResponse(responseCode = "204", description = "Removed.")
    @APIResponse(responseCode = "429", description = "Too many attempts.", content = @Content(mediaType = "application/problem+json",
    schema = @Schema(ref = ApiErrors.PROBLEM_SCHEMA)))
    @DELETE
    @Path("/second-factors/passkeys/{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> removePasskey(@PathParam("id") String id, JsonNode body) {
        long passkeyId = PathIds.parse(id, "passkey");
        EdgeInput<String> password = EdgeInput.read(() -> text(body, "password"));
        return callers.current().chain(caller -> credentials.removePasskey(caller, passkeyId, password.get()))
                .map(done -> Response.noContent().build());
    }
}
