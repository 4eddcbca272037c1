package org.ziggurat.auth.dpop;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.ziggurat.platform.problem.ProblemException;

/**
 * The internal API of DPoP proofs of API calls: whether any gateway replica saw a proof before
 * (201: first use; 409: a replay). Gateways now require their own nonces and ask the nonce's issuer
 * instead (gateway README, "DPoP"); this stays for gateways of the version before, while a rolling
 * upgrade runs both. Never routed by the gateway; its service token only.
 */
@Path("/internal/dpop-proofs")
public class DpopProofResource {

    private final DpopProofs proofs;

    DpopProofResource(DpopProofs proofs) {
        this.proofs = proofs;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Response> seen(DpopProofs.SeenProof proof) {
        if (proof == null) {
            throw ProblemException.badRequest("A JSON body is required.");
        }
        return proofs.firstUseAtResourceServer(proof).map(first -> {
            if (!first) {
                throw ProblemException.conflict("The DPoP proof was used already.");
            }
            return Response.status(201).build();
        });
    }
}
