package org.ziggurat.directory.api;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.directory.identities.LinkedIdentities;
import org.ziggurat.platform.http.PathIds;
import org.ziggurat.platform.rest.openapi.ApiContract;
import org.ziggurat.platform.rest.openapi.ApiErrors;
import org.ziggurat.platform.token.Callers;
import org.ziggurat.platform.token.ScopeNames;

import java.util.List;

/**
 * The identities of other providers (an institution, ORCID, GitHub) that the authenticated person
 * signs in with. Linking one needs a browser (the provider's sign-in, then the account page);
 * removing one is here too.
 */
@Tag(name = "People")
@Path("/user")
@Produces(MediaType.APPLICATION_JSON)
public class LinkedIdentitiesResource {

    private final Callers callers;
    private final LinkedIdentities identities;

    LinkedIdentitiesResource(Callers callers, LinkedIdentities identities) {
        this.callers = callers;
        this.identities = identities;
    }

    @Operation(operationId = "getLinkedIdentities", summary = "The authenticated person's linked identities",
    description = "Each identity of another provider that signs the person in, with what the provider said at the last "
    + "sign-in: its name for the person, the address and whether it verified it, REFEDS assurance, an ORCID iD.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ACCOUNT)
    @APIResponse(responseCode = "200", description = "The linked identities, oldest first.")
    @GET
    @Path("/identities")
    public Uni<List<LinkedIdentities.IdentityView>> list() {
        return callers.current().chain(identities::own);
    }

    @Operation(operationId = "unlinkIdentity", summary = "Remove a linked identity",
    description = "The identity no longer signs the person in. Refused (409) when it is the last way to sign in: no "
    + "password, no passkey and no other linked identity.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ACCOUNT)
    @APIResponse(responseCode = "204", description = "Removed.")
    @APIResponse(responseCode = "404", ref = ApiErrors.NOT_FOUND)
    @APIResponse(responseCode = "409", ref = ApiErrors.CONFLICT)
    @DELETE
    @Path("/identities/{id}")
    public Uni<Response> unlink(@PathParam("id") String id) {
        long linkId = PathIds.parse(id, "identity");
        return callers.current().chain(caller -> identities.unlinkOwn(caller, linkId)).map(done -> Response.noContent().build());
    }
}
