package org.ziggurat.auth.grants;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.platform.rest.openapi.ApiContract;
import org.ziggurat.platform.rest.openapi.ApiErrors;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.platform.http.PathIds;
import org.ziggurat.platform.rest.http.PublicUrls;

import java.util.List;

/** The caller's authorizations (spec 4.1): one per live access token. */
@Tag(name = "Grants and authorizations")
@Path("/authorizations")
@Produces(MediaType.APPLICATION_JSON)
public class AuthorizationsResource {

    private final GrantService grants;

    public AuthorizationsResource(GrantService grants) {
        this.grants = grants;
    }

    @Operation(operationId = "listAuthorizations", summary = "List the caller's authorizations",
    description = "One per live access token of the caller; token is the empty string.")
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @APIResponse(responseCode = "200", description = "The authorizations.")
    @GET
    public Uni<List<GrantViews.Authorization>> list(@Context UriInfo uri) {
        return grants.authorizations(PublicUrls.of(uri));
    }

    @Operation(operationId = "getAuthorization", summary = "Get an authorization")
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @APIResponse(responseCode = "200", description = "The authorization; token is the empty string.")
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @GET
    @Path("/{id}")
    public Uni<GrantViews.Authorization> get(@PathParam("id") String id, @Context UriInfo uri) {
        long tokenId = PathIds.parse(id, "authorization");
        return grants.authorization(tokenId, PublicUrls.of(uri));
    }

    /** The caller's existing authorization for one application ({@link GrantService#forClient}). */
    @Operation(operationId = "getAuthorizationForClient", summary = "Get the caller's authorization for an application",
    description = "With the token value, the user permissions, project_accessors and user_accessors. Only the "
    + "application's own token may read it: another application's token gets 404.")
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @APIResponse(responseCode = "200", description = "The authorization with its token.")
    @GET
    @Path("/clients/{clientId}")
    public Uni<GrantViews.Authorization> forClient(@PathParam("clientId") String clientId, @Context UriInfo uri) {
        if (!GrantService.couldBeClientId(clientId)) {
            throw GrantService.noAuthorizationFor();
        }
        return grants.forClient(clientId, PublicUrls.of(uri));
    }
}
