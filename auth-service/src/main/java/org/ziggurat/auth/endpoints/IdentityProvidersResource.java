package org.ziggurat.auth.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
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
import org.ziggurat.auth.federation.ProviderAdministration;
import org.ziggurat.platform.rest.openapi.ApiContract;
import org.ziggurat.platform.rest.openapi.ApiErrors;
import org.ziggurat.platform.token.ScopeNames;

import java.util.List;

/**
 * The identity providers people may sign in with, for the platform's operators: the deployment's
 * configured ones (read only here) and the ones added through this API.
 */
@Tag(name = "Identity providers", description = "The identity providers people may sign in with (an institution's proxy, ORCID, GitHub), for the platform's operators.")
@Path("/identity-providers")
@Produces(MediaType.APPLICATION_JSON)
public class IdentityProvidersResource {

    @Schema(name = "IdentityProviderInput", description = "An identity provider people may sign in with.")
    record ProviderInput(
            @Schema(required = true, enumeration = {"oidc", "orcid", "github"}, description = "oidc: any OpenID Connect "
                    + "provider (an institution's proxy); orcid: ORCID (the subject is the ORCID iD); github: GitHub's "
                    + "OAuth 2.0 and user API.") String kind,
            @Schema(maxLength = 100, description = "The words of its button, after Sign in with.") String displayName,
            @Schema(maxLength = 500, description = "oidc: the issuer (required); orcid: https://orcid.org when left out.") String issuer,
            @Schema(required = true, maxLength = 200) String clientId,
            @Schema(maxLength = 500, format = "password", description = "Written, never read back; left out on a "
                    + "replacement, the stored one stays.") String clientSecret,
            @Schema(enumeration = {"basic", "post"}, description = "client_secret_basic (default) or client_secret_post.") String clientAuth,
            @Schema(maxLength = 500, description = "The scopes asked for, space-separated.") String scopes,
            @Schema(maxLength = 100, description = "A claim of the provider that holds an ORCID iD.") String orcidClaim,
            @Schema(description = "Whether people without an account may make one through it (default true).") Boolean newAccounts,
            @Schema(maxLength = 500, description = "github: the authorization endpoint (GitHub Enterprise).") String authorizationEndpoint,
            @Schema(maxLength = 500, description = "github: the token endpoint.") String tokenEndpoint,
            @Schema(maxLength = 500, description = "github: the REST API's base.") String apiBase) {
    }

    private final ProviderAdministration administration;

    IdentityProvidersResource(ProviderAdministration administration) {
        this.administration = administration;
    }

    @Operation(operationId = "listIdentityProviders", summary = "The identity providers (operators)",
    description = "Every provider people may sign in with: source configuration (the deployment's, changed there) or api. "
    + "Client secrets are never shown, only whether there is one.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @APIResponse(responseCode = "200", description = "The providers, by id.")
    @APIResponse(responseCode = "401", ref = ApiErrors.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiErrors.FORBIDDEN)
    @GET
    public Uni<List<ProviderAdministration.ProviderView>> list() {
        return administration.list();
    }

    @Operation(operationId = "putIdentityProvider", summary = "Add or replace an identity provider (operators)",
    description = "Checked as a configured provider is at start (kind, issuer, client authentication). Its button is on "
    + "the sign-in pages of this replica at once, and of every other within ziggurat.auth.federation.refresh-every (5 s). "
    + "The id names the provider in people's links: never reuse one for another provider.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = ProviderInput.class)))
    @APIResponse(responseCode = "200", description = "Replaced.")
    @APIResponse(responseCode = "201", description = "Added.")
    @APIResponse(responseCode = "401", ref = ApiErrors.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiErrors.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiErrors.NOT_FOUND)
    @APIResponse(responseCode = "409", ref = ApiErrors.CONFLICT)
    @APIResponse(responseCode = "422", ref = ApiErrors.UNPROCESSABLE)
    @PUT
    @Path("/{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> put(@PathParam("id") String id, JsonNode body) {
        return administration.put(id, body).map(put -> Response.status(put.created() ? 201 : 200).entity(put.provider()).build());
    }

    @Operation(operationId = "deleteIdentityProvider", summary = "Remove an identity provider (operators)",
    description = "Its button goes; identities people linked through it stay on their accounts (they may unlink them).")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @APIResponse(responseCode = "204", description = "Removed.")
    @APIResponse(responseCode = "401", ref = ApiErrors.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiErrors.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiErrors.NOT_FOUND)
    @APIResponse(responseCode = "409", ref = ApiErrors.CONFLICT)
    @DELETE
    @Path("/{id}")
    public Uni<Response> delete(@PathParam("id") String id) {
        return administration.delete(id).map(done -> Response.noContent().build());
    }
}
