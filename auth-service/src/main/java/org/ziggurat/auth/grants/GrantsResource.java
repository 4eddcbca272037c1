package org.ziggurat.auth.grants;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.platform.rest.openapi.ApiContract;
import org.ziggurat.platform.rest.openapi.ApiErrors;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.platform.http.PathIds;
import org.ziggurat.platform.rest.http.PublicUrls;

import java.util.List;

/** The applications the caller granted access (spec 4.1): one Grant per application. */
@Tag(name = "Grants and authorizations", description = "The applications the caller granted access, and their live tokens.")
@Path("/applications/grants")
@Produces(MediaType.APPLICATION_JSON)
public class GrantsResource {

    private final GrantService grants;

    public GrantsResource(GrantService grants) {
        this.grants = grants;
    }

    @Operation(operationId = "listGrants", summary = "List the caller's grants",
    description = "One Grant per application that holds access to the caller, however many tokens it holds.")
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @APIResponse(responseCode = "200", description = "The grants.")
    @GET
    public Uni<List<GrantViews.Grant>> list(@Context UriInfo uri) {
        return grants.grants(PublicUrls.of(uri));
    }

    @Operation(operationId = "getGrant", summary = "Get a grant")
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @APIResponse(responseCode = "200", description = "The grant.")
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @GET
    @Path("/{id}")
    public Uni<GrantViews.Grant> get(@PathParam("id") String id, @Context UriInfo uri) {
        long grantId = PathIds.parse(id, "grant");
        return grants.grant(grantId, PublicUrls.of(uri));
    }

    /** Revoke access: every token of this application for the caller, and the remembered consent. */
    @Operation(operationId = "revokeGrant", summary = "Revoke a grant",
    description = "Every token of this application for the caller, and the remembered consent. Needs no scope: "
    + "taking access away is never an escalation.")
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @APIResponse(responseCode = "204", description = "Revoked.")
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @DELETE
    @Path("/{id}")
    public Uni<Response> revoke(@PathParam("id") String id) {
        long grantId = PathIds.parse(id, "grant");
        return grants.revokeGrant(grantId)
                .map(count -> Response.noContent().build());
    }
}
